import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { AssigneeGroup, OperatorRef } from '@protocol/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OperatorsPicker, type Request, useAssignees } from './shared.tsx';

/** Charge: to an operator or a department (a user group of the company), with comments. */
export function ChargeFields({ onReady }: { onReady: (request: Partial<Request> | null) => void }) {
  const { t } = useTranslation();
  const [to, setTo] = useState<'user' | 'group'>('user');
  const [users, setUsers] = useState<OperatorRef[]>([]);
  const [group, setGroup] = useState<AssigneeGroup | null>(null);
  const groups = useAssignees();
  useEffect(() => {
    if (to === 'user') onReady(users[0] ? { userId: users[0].id } : null);
    else onReady(group ? { groupId: group.id } : null);
  }, [to, users, group, onReady]);
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 0.75 }}>
          {t('docs.actions.chargeTo')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={to}
          onChange={(_event, next: 'user' | 'group' | null) => next && setTo(next)}
          color="primary"
        >
          <ToggleButton value="user" data-testid="charge-to-user">
            {t('docs.actions.toOperator')}
          </ToggleButton>
          <ToggleButton value="group" data-testid="charge-to-group">
            {t('docs.actions.toGroup')}
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {to === 'user' ? (
        <OperatorsPicker
          multiple={false}
          value={users}
          onChange={setUsers}
          label={t('docs.actions.operator')}
        />
      ) : groups.error ? (
        <Alert severity="warning">{t('docs.actions.noGroups')}</Alert>
      ) : (
        <Autocomplete<AssigneeGroup>
          options={groups.data?.groups ?? []}
          loading={groups.isPending}
          value={group}
          onChange={(_event, next) => setGroup(next)}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          getOptionLabel={(option) => option.name}
          renderOption={({ key, ...props }, option) => (
            <li key={key} {...props} data-testid={`group-option-${option.id}`}>
              <Box>
                <Typography variant="body2">{option.name}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('docs.actions.groupMembers', { count: option.memberCount })}
                </Typography>
              </Box>
            </li>
          )}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('docs.actions.group')}
              required
              slotProps={{
                ...params.slotProps,
                htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'action-group' },
              }}
            />
          )}
        />
      )}
    </Stack>
  );
}
