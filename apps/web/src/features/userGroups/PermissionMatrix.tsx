import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  type Permission,
  type PermissionModule,
  permissionAreas,
  permissionAreasByModule,
  permissionLevels,
} from '@protocol/contracts';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { highestRank, withAreaRank } from '../../lib/permissionLevels.ts';

interface Props {
  value: readonly Permission[];
  onChange: (next: Permission[]) => void;
  disabled?: boolean;
}

/**
 * The permissions of a group as a matrix: one row per permission area (a module with several areas,
 * such as the water service, heads its rows), one column per level. Checking a level checks the
 * lower ones; unchecking a level unchecks the higher ones (a level includes the lower ones). The
 * header checkboxes set a level in every area.
 */
export function PermissionMatrix({ value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const ranks = permissionAreas.map((area) => highestRank(value, area));

  const toggle = (areaIndex: number, levelIndex: number) => {
    const area = permissionAreas[areaIndex];
    if (!area) return;
    const checked = (ranks[areaIndex] ?? -1) >= levelIndex;
    onChange(withAreaRank(value, area, checked ? levelIndex - 1 : levelIndex));
  };

  const toggleColumn = (levelIndex: number, allChecked: boolean) => {
    let next: Permission[] = [...value];
    permissionAreas.forEach((area, index) => {
      const rank = ranks[index] ?? -1;
      const target = allChecked ? Math.min(rank, levelIndex - 1) : Math.max(rank, levelIndex);
      next = withAreaRank(next, area, target);
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
              const allChecked = count === permissionAreas.length;
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
          {(Object.keys(permissionAreasByModule) as PermissionModule[]).map((module) => {
            const areas = permissionAreasByModule[module];
            const grouped = areas.length > 1;
            return (
              <Fragment key={module}>
                {grouped && (
                  <TableRow data-testid={`perm-module-${module}`}>
                    <TableCell
                      component="th"
                      scope="rowgroup"
                      colSpan={permissionLevels.length + 1}
                      sx={{ fontWeight: 600, bgcolor: 'action.hover', py: 0.75 }}
                    >
                      {t(`groups.module.${module}`)}
                    </TableCell>
                  </TableRow>
                )}
                {areas.map((area) => {
                  const areaIndex = permissionAreas.indexOf(area);
                  const rank = ranks[areaIndex] ?? -1;
                  const areaName = t(`groups.area.${area}`);
                  return (
                    <TableRow key={area} hover data-testid={`perm-row-${area}`}>
                      <TableCell component="th" scope="row" sx={{ fontWeight: 500, pl: grouped ? 4 : 2 }}>
                        {areaName}
                      </TableCell>
                      {permissionLevels.map((level, levelIndex) => (
                        <TableCell key={level} align="center" padding="checkbox">
                          <Checkbox
                            checked={rank >= levelIndex}
                            disabled={disabled}
                            onChange={() => toggle(areaIndex, levelIndex)}
                            slotProps={{
                              input: {
                                'aria-label': `${areaName}: ${t(`groups.level.${level}`)}`,
                                'data-testid': `perm-${area}-${level}`,
                              } as object,
                            }}
                          />
                        </TableCell>
                      ))}
                    </TableRow>
                  );
                })}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
