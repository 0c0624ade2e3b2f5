import DarkModeOutlinedIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlinedIcon from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { usePreferences } from '../lib/preferences.tsx';

export function useThemeToggleLabel(): string {
  const { t } = useTranslation();
  const { mode } = usePreferences();
  return mode === 'light' ? t('topbar.themeDark') : t('topbar.themeLight');
}

/** Dark/light theme, kept in the 'theme' cookie. (No MUI Tooltip here: it is on the sign-in page.) */
export function ThemeToggle() {
  const { mode, toggleMode } = usePreferences();
  const label = useThemeToggleLabel();
  return (
    <IconButton
      color="inherit"
      data-testid="topbar-theme"
      data-mode={mode}
      aria-label={label}
      onClick={toggleMode}
    >
      {mode === 'light' ? <DarkModeOutlinedIcon /> : <LightModeOutlinedIcon />}
    </IconButton>
  );
}
