import './i18n/index.ts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { permissionAreas, permissionLevels, type User } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useUser } from '../../lib/currentUser.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { highestRank } from '../../lib/permissionLevels.ts';
import { can } from '../../lib/permissions.ts';

/**
 * Read only: the operator's user groups (links for those who manage groups) and the effective
 * permissions, one line per module with its levels (permissions come from groups only).
 */
export function GroupsAndPermissions({ user }: { user: User }) {
  const { t } = useTranslation();
  const me = useUser();
  const localize = useLocalize();
  const managesGroups = can(me, 'users:admin');
  const companyName = new Map(me.companies.map((company) => [company.id, company.companyname]));
  const showCompany = me.companies.length > 1;
  const modules = permissionAreas
    .map((module) => ({ module, rank: highestRank(user.scope, module) }))
    .filter((item) => item.rank >= 0);

  return (
    <>
      <Box data-testid="user-groups">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('userForm.groups')}
        </Typography>
        {user.groups.length > 0 ? (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            {user.groups.map((group) => {
              const label =
                showCompany && companyName.has(group.companyId)
                  ? `${group.name} · ${companyName.get(group.companyId)}`
                  : group.name;
              return managesGroups ? (
                <Chip
                  key={group.id}
                  label={label}
                  size="small"
                  color="primary"
                  variant="outlined"
                  clickable
                  component={RouterLink}
                  to={localize(`/users/groups/${group.id}/edit`)}
                  data-testid={`user-group-${group.id}`}
                />
              ) : (
                <Chip key={group.id} label={label} size="small" data-testid={`user-group-${group.id}`} />
              );
            })}
          </Box>
        ) : (
          <Typography variant="body2">{t('userForm.noGroups')}</Typography>
        )}
        {managesGroups && (
          <Link
            component={RouterLink}
            to={localize('/users/groups')}
            variant="body2"
            sx={{ display: 'inline-block', mt: 1 }}
          >
            {t('userForm.manageGroups')}
          </Link>
        )}
      </Box>
      <Box data-testid="user-permissions">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('userForm.permissions')}
        </Typography>
        {user.superAdmin && (
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('userForm.permissionsSuperAdmin')}
          </Typography>
        )}
        {modules.length > 0 ? (
          <Paper variant="outlined">
            <Stack divider={<Box sx={{ borderTop: 1, borderColor: 'divider' }} />}>
              {modules.map(({ module, rank }) => (
                <Box
                  key={module}
                  data-testid={`user-permission-${module}`}
                  data-level={permissionLevels[rank]}
                  sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 0.75, flexWrap: 'wrap' }}
                >
                  <Typography variant="body2" sx={{ fontWeight: 500, flexGrow: 1 }}>
                    {t(`groups.area.${module}`)}
                  </Typography>
                  {permissionLevels.slice(0, rank + 1).map((level) => (
                    <Chip
                      key={level}
                      size="small"
                      variant={permissionLevels.indexOf(level) === rank ? 'filled' : 'outlined'}
                      label={t(`groups.level.${level}`)}
                    />
                  ))}
                </Box>
              ))}
            </Stack>
          </Paper>
        ) : (
          <Typography variant="body2">{t('userForm.noPermissions')}</Typography>
        )}
      </Box>
    </>
  );
}
