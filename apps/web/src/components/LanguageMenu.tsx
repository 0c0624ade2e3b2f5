import CheckIcon from '@mui/icons-material/Check';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { Language } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';

const LANGUAGES: readonly Language[] = ['el', 'en'];

interface Props {
  id: string;
  anchor: HTMLElement | null;
  current: Language;
  onChoose: (lang: Language) => void;
  onClose: () => void;
}

/** The language menu; its own chunk, loaded when the switcher is first hovered or pressed. */
export default function LanguageMenu({ id, anchor, current, onChoose, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {LANGUAGES.map((item) => (
        <MenuItem
          key={item}
          lang={item}
          data-testid={`lang-${item}`}
          selected={item === current}
          onClick={() => onChoose(item)}
          sx={{ minWidth: 180 }}
        >
          <ListItemIcon>{item === current ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
          <ListItemText>{t(`language.${item}`)}</ListItemText>
        </MenuItem>
      ))}
    </Menu>
  );
}
