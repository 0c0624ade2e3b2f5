import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BrandMark } from '../../components/BrandMark.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { ThemeToggle, useThemeToggleLabel } from '../../components/ThemeToggle.tsx';
import { topBarItems } from '../../lib/feature.ts';
import { useLocalize } from '../../lib/language.tsx';
import { usePreferences } from '../../lib/preferences.tsx';
import { TOP_BAR_HEIGHT } from '../../lib/theme.ts';
import { features } from '../features.ts';
import { AccountMenu } from './AccountMenu.tsx';
import { AppLauncher } from './AppLauncher.tsx';
import { CompanySwitcher } from './CompanySwitcher.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { SIDE_MENU_ID } from './SideMenu.tsx';
import { GlobalSearch } from './search/GlobalSearch.tsx';

const featureButtons = topBarItems(features);

/** The fixed 50 px top bar (spec §2). */
export function TopBar() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const { menuMini, toggleMenu } = usePreferences();
  const themeLabel = useThemeToggleLabel();
  return (
    <AppBar
      position="fixed"
      elevation={0}
      sx={(theme) => ({
        height: TOP_BAR_HEIGHT,
        zIndex: theme.zIndex.drawer + 1,
        bgcolor: theme.palette.mode === 'light' ? '#3d00c4' : '#14161d',
        backgroundImage:
          theme.palette.mode === 'light'
            ? 'linear-gradient(90deg, #3d00c4 0%, #5000ff 55%, #5a1aff 100%)'
            : 'none',
        color: '#fff',
        borderBottom: theme.palette.mode === 'light' ? 'none' : `1px solid ${theme.palette.divider}`,
      })}
    >
      <Toolbar
        disableGutters
        sx={{ minHeight: `${TOP_BAR_HEIGHT}px !important`, height: TOP_BAR_HEIGHT, px: 1, gap: 0.5 }}
      >
        <AppLauncher />
        <Tooltip title={t('topbar.toggleMenu')}>
          <IconButton
            color="inherit"
            data-testid="topbar-menu-toggle"
            aria-label={t('topbar.toggleMenu')}
            aria-controls={SIDE_MENU_ID}
            aria-expanded={!menuMini}
            onClick={toggleMenu}
          >
            {menuMini ? <MenuIcon /> : <MenuOpenIcon />}
          </IconButton>
        </Tooltip>
        <Box
          component={RouterLink}
          to={localize('/')}
          aria-label={t('topbar.home')}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            color: 'inherit',
            textDecoration: 'none',
            ml: 0.5,
            mr: 2,
            borderRadius: 1,
            px: 0.5,
            '&:focus-visible': { outline: '2px solid #fff', outlineOffset: 2 },
          }}
        >
          <BrandMark size={26} inverted />
          <Box component="span" sx={{ fontWeight: 700, fontSize: 18, letterSpacing: '0.01em' }}>
            {t('app.name')}
          </Box>
        </Box>
        <Box sx={{ flexGrow: 1 }} />
        <GlobalSearch />
        <CompanySwitcher />
        <LanguageSwitcher />
        <Tooltip title={themeLabel}>
          <span>
            <ThemeToggle />
          </span>
        </Tooltip>
        {featureButtons.map(({ key, component: Button }) => (
          <Suspense key={key} fallback={null}>
            <Button />
          </Suspense>
        ))}
        <NotificationBell />
        <AccountMenu />
      </Toolbar>
    </AppBar>
  );
}
