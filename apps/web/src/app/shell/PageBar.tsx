import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { MENU_RIGHT_ALIGNED, useMenuButton } from '../../components/useMenuButton.ts';
import type { AppBarContent } from '../../lib/appBarContext.tsx';
import { stripLang } from '../../lib/lang.ts';
import { useLocalize } from '../../lib/language.tsx';
import { APP_BAR_HEIGHT, TOP_BAR_HEIGHT } from '../../lib/theme.ts';

/** Links of the dashboard: the back button is hidden on them (spec §2). */
const DASHBOARD_PATHS = ['/', '/dashboard'];

/** The 43 px app bar under the top bar: back button, page title and the page's actions menu. */
export function PageBar({ content, aside }: { content: AppBarContent; aside?: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const menu = useMenuButton();
  const onDashboard = DASHBOARD_PATHS.includes(stripLang(location.pathname));
  const actions = content.actions ?? [];

  const goBack = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(localize('/'));
  };

  return (
    <Box
      data-testid="app-bar"
      sx={(theme) => ({
        position: 'sticky',
        top: TOP_BAR_HEIGHT,
        zIndex: theme.zIndex.appBar - 1,
        height: APP_BAR_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 1,
        bgcolor: theme.palette.background.paper,
        borderBottom: `1px solid ${theme.palette.divider}`,
      })}
    >
      {!onDashboard && (
        <Tooltip title={t('appbar.back')}>
          <IconButton size="small" data-testid="appbar-back" aria-label={t('appbar.back')} onClick={goBack}>
            <ArrowBackIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Typography
        component="p"
        sx={{ fontWeight: 600, fontSize: 15, pl: onDashboard ? 1.5 : 0, flexGrow: 1 }}
        noWrap
      >
        {content.title ?? ''}
      </Typography>
      {aside}
      {actions.length > 0 && (
        <>
          <Button
            size="small"
            color="inherit"
            data-testid="appbar-actions"
            {...menu.buttonProps}
            endIcon={<MoreVertIcon fontSize="small" />}
            sx={{ color: 'text.secondary' }}
          >
            {t('appbar.actions')}
          </Button>
          <Menu {...menu.menuProps} {...MENU_RIGHT_ALIGNED}>
            {actions.map((action) => (
              <MenuItem
                key={action.key}
                disabled={action.disabled}
                data-testid={action.testId}
                onClick={() => {
                  menu.close();
                  action.onClick();
                }}
                sx={{ minWidth: 200 }}
              >
                {action.icon && <ListItemIcon>{action.icon}</ListItemIcon>}
                <ListItemText>{action.label}</ListItemText>
              </MenuItem>
            ))}
          </Menu>
        </>
      )}
    </Box>
  );
}
