import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useUser } from '../../lib/currentUser.tsx';
import { useInstallationEnv } from '../../lib/env.ts';
import { isAllowed, type MenuEntry, menuEntries } from '../../lib/feature.ts';
import { stripLang } from '../../lib/lang.ts';
import { useLocalize } from '../../lib/language.tsx';
import { usePreferences } from '../../lib/preferences.tsx';
import { MENU_MINI_WIDTH, MENU_WIDTH, TOP_BAR_HEIGHT } from '../../lib/theme.ts';
import { features } from '../features.ts';

export const SIDE_MENU_ID = 'side-menu';

const MENU = menuEntries(features);

/** How specifically an entry claims the path: its longest matching path, or -1. */
function matchLength(entry: MenuEntry, path: string): number {
  const paths = [entry.path, ...(entry.alsoActiveOn ?? [])];
  const matching = paths.filter((candidate) =>
    candidate === '/' ? path === '/' : path === candidate || path.startsWith(`${candidate}/`),
  );
  return Math.max(-1, ...matching.map((candidate) => candidate.length));
}

/**
 * The entries of the path: those that claim it most specifically, so the water service's
 * /parametrics/sectors is not also Settings › Parametrics (which claims all of /parametrics).
 */
function activeKeys(path: string): Set<string> {
  const all = MENU.flatMap((entry) => [entry, ...(entry.children ?? [])]);
  const best = Math.max(-1, ...all.map((entry) => matchLength(entry, path)));
  return new Set(best < 0 ? [] : all.filter((entry) => matchLength(entry, path) === best).map((e) => e.key));
}

/** The permanent left menu: 230 px, or 43 px mini (cookie 'menuMini'); entries come from the features (app/features.ts). */
export function SideMenu() {
  const { t } = useTranslation();
  const { menuMini } = usePreferences();
  const localize = useLocalize();
  const user = useUser();
  const env = useInstallationEnv();
  const path = stripLang(useLocation().pathname);
  const width = menuMini ? MENU_MINI_WIDTH : MENU_WIDTH;
  const entries = MENU.filter((entry) => isAllowed(user, entry));
  const active = activeKeys(path);
  const isActive = (entry: MenuEntry) => active.has(entry.key);

  return (
    <Drawer
      variant="permanent"
      slotProps={{
        paper: {
          id: SIDE_MENU_ID,
          'data-testid': 'side-menu',
          'data-mini': String(menuMini),
          sx: (theme: Theme) => ({
            top: TOP_BAR_HEIGHT,
            height: `calc(100% - ${TOP_BAR_HEIGHT}px)`,
            width,
            overflowX: 'hidden',
            borderRight: `1px solid ${theme.palette.divider}`,
            bgcolor: theme.palette.background.paper,
            transition: theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
          }),
        } as object,
      }}
      sx={{ width, flexShrink: 0, transition: (theme) => theme.transitions.create('width') }}
    >
      <Box
        component="nav"
        aria-label={t('menu.label')}
        sx={{ flexGrow: 1, pt: 1, display: 'flex', flexDirection: 'column' }}
      >
        <List disablePadding>
          {entries.map((entry) => {
            const children = menuMini ? [] : (entry.children ?? []).filter((child) => isAllowed(user, child));
            const childActive = children.some((child) => isActive(child));
            const current = isActive(entry);
            const Icon = entry.icon;
            const label = t(entry.label);
            const button = (
              <ListItemButton
                key={entry.key}
                component={RouterLink}
                to={localize(entry.path)}
                selected={current && !childActive}
                aria-current={current && !childActive ? 'page' : undefined}
                aria-label={menuMini ? label : undefined}
                data-testid={`menu-${entry.key}`}
                sx={(theme) => ({
                  minHeight: 42,
                  mx: menuMini ? 0 : 1,
                  mb: 0.5,
                  px: menuMini ? '11.5px' : 1.5,
                  borderRadius: menuMini ? 0 : 1.5,
                  ...(childActive && {
                    color:
                      theme.palette.mode === 'light'
                        ? theme.palette.primary.main
                        : theme.palette.primary.light,
                    '& .MuiListItemIcon-root': { color: 'inherit' },
                  }),
                  '&.Mui-selected': {
                    bgcolor:
                      theme.palette.mode === 'light' ? 'rgba(80, 0, 255, 0.09)' : 'rgba(0, 200, 254, 0.14)',
                    color:
                      theme.palette.mode === 'light'
                        ? theme.palette.primary.main
                        : theme.palette.primary.light,
                    '& .MuiListItemIcon-root': { color: 'inherit' },
                  },
                })}
              >
                <ListItemIcon sx={{ minWidth: menuMini ? 0 : 36 }}>
                  <Icon fontSize="small" />
                </ListItemIcon>
                {!menuMini && (
                  <ListItemText
                    primary={label}
                    slotProps={{
                      primary: {
                        noWrap: true,
                        sx: { fontWeight: current || childActive ? 600 : 500, fontSize: 14 },
                      },
                    }}
                  />
                )}
              </ListItemButton>
            );
            return (
              <ListItem key={entry.key} disablePadding sx={{ display: 'block' }}>
                {menuMini ? (
                  <Tooltip title={label} placement="right">
                    {button}
                  </Tooltip>
                ) : (
                  button
                )}
                {children.length > 0 && (
                  <List disablePadding aria-label={label} sx={{ mb: 0.5 }}>
                    {children.map((child) => {
                      const current = isActive(child);
                      const ChildIcon = child.icon;
                      return (
                        <ListItem key={child.key} disablePadding sx={{ display: 'block' }}>
                          <ListItemButton
                            component={RouterLink}
                            to={localize(child.path)}
                            selected={current}
                            aria-current={current ? 'page' : undefined}
                            data-testid={`menu-${child.key}`}
                            sx={(theme) => ({
                              minHeight: 36,
                              ml: 3,
                              mr: 1,
                              mb: 0.25,
                              px: 1.5,
                              borderRadius: 1.5,
                              '&.Mui-selected': {
                                bgcolor:
                                  theme.palette.mode === 'light'
                                    ? 'rgba(80, 0, 255, 0.09)'
                                    : 'rgba(0, 200, 254, 0.14)',
                                color:
                                  theme.palette.mode === 'light'
                                    ? theme.palette.primary.main
                                    : theme.palette.primary.light,
                                '& .MuiListItemIcon-root': { color: 'inherit' },
                              },
                            })}
                          >
                            <ListItemIcon sx={{ minWidth: 30 }}>
                              <ChildIcon fontSize="small" />
                            </ListItemIcon>
                            <ListItemText
                              primary={t(child.label)}
                              slotProps={{
                                primary: {
                                  noWrap: true,
                                  sx: { fontWeight: current ? 600 : 500, fontSize: 13.5 },
                                },
                              }}
                            />
                          </ListItemButton>
                        </ListItem>
                      );
                    })}
                  </List>
                )}
              </ListItem>
            );
          })}
        </List>
        <Box sx={{ flexGrow: 1 }} />
        {!menuMini && env && (
          <Typography
            variant="caption"
            color="text.secondary"
            sx={{ px: 2.5, py: 1.5, whiteSpace: 'nowrap' }}
          >
            {env.appName} {env.version}
          </Typography>
        )}
      </Box>
    </Drawer>
  );
}
