import AppsIcon from '@mui/icons-material/Apps';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useMenuButton } from '../../components/useMenuButton.ts';
import { launcherApps } from '../../lib/feature.ts';
import { useLocalize } from '../../lib/language.tsx';
import { features } from '../features.ts';

const CURRENT_APP = 'protocol';
const APPS = launcherApps(features);

/** Switches between the product's applications; only 'Protocol' exists now. */
export function AppLauncher() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const menu = useMenuButton();
  return (
    <>
      <Tooltip title={t('topbar.launcher')}>
        <IconButton
          color="inherit"
          data-testid="topbar-launcher"
          aria-label={t('topbar.launcher')}
          {...menu.buttonProps}
          edge="start"
        >
          <AppsIcon />
        </IconButton>
      </Tooltip>
      <Menu {...menu.menuProps} slotProps={{ list: { 'aria-label': t('topbar.launcher'), sx: { py: 0 } } }}>
        <ListSubheader sx={{ lineHeight: '40px' }}>{t('topbar.launcher')}</ListSubheader>
        {APPS.map((app) => {
          const current = app.key === CURRENT_APP;
          const Icon = app.icon;
          return (
            <MenuItem
              key={app.key}
              component={RouterLink}
              to={localize(app.path)}
              selected={current}
              aria-current={current ? 'true' : undefined}
              data-testid={`launcher-app-${app.key}`}
              onClick={menu.close}
              sx={{ minWidth: 320, py: 1.25, gap: 1 }}
            >
              <ListItemIcon>
                <Box
                  sx={{
                    width: 36,
                    height: 36,
                    borderRadius: 2,
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: 'primary.main',
                    color: 'primary.contrastText',
                  }}
                >
                  <Icon fontSize="small" />
                </Box>
              </ListItemIcon>
              <ListItemText primary={t(app.label)} secondary={t(app.description)} />
              {current && (
                <Chip size="small" label={t('topbar.launcherCurrent')} color="primary" variant="outlined" />
              )}
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
