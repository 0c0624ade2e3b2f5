import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import ManageSearchOutlinedIcon from '@mui/icons-material/ManageSearchOutlined';
import PersonOutlinedIcon from '@mui/icons-material/PersonOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useNotify } from '../../components/Notifier.tsx';
import { initials } from '../../components/PageHeader.tsx';
import { MENU_RIGHT_ALIGNED, useMenuButton } from '../../components/useMenuButton.ts';
import { api } from '../../lib/api.ts';
import { useOpenChangePassword } from '../../lib/changePasswordContext.tsx';
import { useUser } from '../../lib/currentUser.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { can } from '../../lib/permissions.ts';
import { useSession } from '../../lib/session.tsx';

/** Read by screen readers, not shown. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** Account, change password, rebuilding the search index and logout (spec §2). */
export function AccountMenu() {
  const { t } = useTranslation();
  const user = useUser();
  const { logout } = useSession();
  const localize = useLocalize();
  const openChangePassword = useOpenChangePassword();
  const menu = useMenuButton();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const reindex = useMutation({
    mutationFn: () => api.post<unknown>('/api/reindex'),
    onSuccess: () => {
      notify(t('accountMenu.reindexStarted'), 'success');
      // The jobs button in the top bar shows it running at once.
      void queryClient.invalidateQueries({ queryKey: ['jobs'] });
    },
  });
  const fullName = `${user.firstname} ${user.lastname}`.trim() || user.username;

  return (
    <>
      <Button
        color="inherit"
        data-testid="account-menu"
        {...menu.buttonProps}
        endIcon={<ExpandMoreIcon sx={{ display: { xs: 'none', md: 'block' } }} />}
        sx={{ textTransform: 'none', fontWeight: 500, ml: 0.5, pl: 0.75, minWidth: 0 }}
      >
        <Box component="span" sx={visuallyHidden}>
          {t('topbar.accountMenu')}:{' '}
        </Box>
        <Avatar
          aria-hidden
          sx={{
            width: 30,
            height: 30,
            fontSize: 13,
            fontWeight: 600,
            bgcolor: 'rgba(255,255,255,0.22)',
            color: 'inherit',
            border: '1px solid rgba(255,255,255,0.45)',
          }}
        >
          {initials(user.firstname, user.lastname, user.username)}
        </Avatar>
        <Box
          component="span"
          sx={{
            display: { xs: 'none', md: 'inline' },
            ml: 1,
            maxWidth: 180,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {fullName}
        </Box>
      </Button>
      <Menu
        {...menu.menuProps}
        {...MENU_RIGHT_ALIGNED}
        slotProps={{ paper: { sx: { minWidth: 250, mt: 0.5 } } }}
      >
        <Box sx={{ px: 2, pt: 1, pb: 1.5 }} role="presentation">
          <Typography sx={{ fontWeight: 600 }}>{fullName}</Typography>
          <Typography variant="body2" color="text.secondary">
            {user.email || user.username}
          </Typography>
        </Box>
        <Divider />
        <MenuItem
          component={RouterLink}
          to={localize(`/users/${user.id}/edit`)}
          data-testid="account-menu-account"
          onClick={menu.close}
        >
          <ListItemIcon>
            <PersonOutlinedIcon fontSize="small" />
          </ListItemIcon>
          {t('accountMenu.account')}
        </MenuItem>
        <MenuItem
          data-testid="account-menu-change-password"
          onClick={() => {
            menu.close();
            openChangePassword();
          }}
        >
          <ListItemIcon>
            <KeyOutlinedIcon fontSize="small" />
          </ListItemIcon>
          {t('accountMenu.changePassword')}
        </MenuItem>
        {can(user, 'settings:write') && (
          <MenuItem
            data-testid="account-menu-reindex"
            disabled={reindex.isPending}
            onClick={() => {
              menu.close();
              reindex.mutate();
            }}
          >
            <ListItemIcon>
              <ManageSearchOutlinedIcon fontSize="small" />
            </ListItemIcon>
            {t('accountMenu.reindex')}
          </MenuItem>
        )}
        <Divider />
        <MenuItem
          data-testid="account-menu-logout"
          onClick={() => {
            menu.close();
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('accountMenu.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
