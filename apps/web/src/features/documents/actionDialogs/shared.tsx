import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OperatorRef } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { referenceApi } from '../api.ts';
import type { DocumentActionRequest } from '../model.ts';

// What several action dialogs use: the request they build, the operator pickers, the comments.
export type Request = Omit<DocumentActionRequest, 'document'>;

export function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

export const userName = (user: OperatorRef) => user.fullName || user.username;

/** The company's active operators and its user groups: one answer for both pickers (protocol:read). */
export function useAssignees() {
  return useQuery({
    queryKey: ['documents', 'assignees'],
    queryFn: ({ signal }) => referenceApi.assignees(signal),
    staleTime: 60_000,
  });
}

export function Comments({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('docs.actions.comments')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      multiline
      minRows={3}
      fullWidth
      slotProps={{ htmlInput: { 'data-testid': 'action-comments', maxLength: 4000 } }}
    />
  );
}

export function OperatorsPicker({
  multiple,
  value,
  onChange,
  label,
}: {
  multiple: boolean;
  value: OperatorRef[];
  onChange: (users: OperatorRef[]) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const assignees = useAssignees();
  if (assignees.error) {
    return <Alert severity="warning">{t('docs.actions.noOperators')}</Alert>;
  }
  return (
    <Autocomplete<OperatorRef, boolean>
      multiple={multiple}
      options={assignees.data?.operators ?? []}
      loading={assignees.isPending}
      value={multiple ? value : (value[0] ?? null)}
      onChange={(_event, next) => onChange(next === null ? [] : Array.isArray(next) ? next : [next])}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      getOptionLabel={userName}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props} data-testid={`operator-option-${option.username}`}>
          <Box>
            <Typography variant="body2">{userName(option)}</Typography>
            <Typography variant="caption" color="text.secondary">
              {option.username}
            </Typography>
          </Box>
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'action-operator' },
          }}
        />
      )}
    />
  );
}
