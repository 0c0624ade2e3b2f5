import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type Permission, permissionLevels, permissionModules } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { highestRank, withModuleRank } from '../../lib/permissionLevels.ts';

interface Props {
  value: readonly Permission[];
  onChange: (next: Permission[]) => void;
  disabled?: boolean;
}

/**
 * The permissions of a group as a matrix: one row per module, one column per level. Checking a
 * level checks the lower ones; unchecking a level unchecks the higher ones (a level includes the
 * lower ones). The header checkboxes set a level in every module.
 */
export function PermissionMatrix({ value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const ranks = permissionModules.map((module) => highestRank(value, module));

  const toggle = (moduleIndex: number, levelIndex: number) => {
    const module = permissionModules[moduleIndex];
    if (!module) return;
    const checked = (ranks[moduleIndex] ?? -1) >= levelIndex;
    onChange(withModuleRank(value, module, checked ? levelIndex - 1 : levelIndex));
  };

  const toggleColumn = (levelIndex: number, allChecked: boolean) => {
    let next: Permission[] = [...value];
    permissionModules.forEach((module, index) => {
      const rank = ranks[index] ?? -1;
      const target = allChecked ? Math.min(rank, levelIndex - 1) : Math.max(rank, levelIndex);
      next = withModuleRank(next, module, target);
    });
    onChange(next);
  };

  return (
    <TableContainer
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1.5 }}
      data-testid="permission-matrix"
    >
      <Table size="small" aria-label={t('userGroups.permissions')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600, width: '40%' }}>{t('userGroups.module')}</TableCell>
            {permissionLevels.map((level, levelIndex) => {
              const count = ranks.filter((rank) => rank >= levelIndex).length;
              const allChecked = count === permissionModules.length;
              const label = t(`groups.level.${level}`);
              return (
                <TableCell key={level} align="center" sx={{ fontWeight: 600, py: 0.75 }}>
                  <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
                    <Checkbox
                      size="small"
                      checked={allChecked}
                      indeterminate={count > 0 && !allChecked}
                      disabled={disabled}
                      onChange={() => toggleColumn(levelIndex, allChecked)}
                      slotProps={{
                        input: {
                          'aria-label': t('userGroups.allOfLevel', { level: label }),
                          'data-testid': `perm-all-${level}`,
                        } as object,
                      }}
                    />
                    <span>{label}</span>
                    <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 400 }}>
                      {t(`userGroups.levelHint.${level}`)}
                    </Typography>
                  </Box>
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>
          {permissionModules.map((module, moduleIndex) => {
            const rank = ranks[moduleIndex] ?? -1;
            const moduleName = t(`groups.module.${module}`);
            return (
              <TableRow key={module} hover data-testid={`perm-row-${module}`}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 500 }}>
                  {moduleName}
                </TableCell>
                {permissionLevels.map((level, levelIndex) => (
                  <TableCell key={level} align="center" padding="checkbox">
                    <Checkbox
                      checked={rank >= levelIndex}
                      disabled={disabled}
                      onChange={() => toggle(moduleIndex, levelIndex)}
                      slotProps={{
                        input: {
                          'aria-label': `${moduleName}: ${t(`groups.level.${level}`)}`,
                          'data-testid': `perm-${module}-${level}`,
                        } as object,
                      }}
                    />
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
