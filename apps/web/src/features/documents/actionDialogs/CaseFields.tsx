import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { optionLabel, referenceApi } from '../api.ts';
import type { SettingOption } from '../model.ts';
import { type Request, useDebounced } from './shared.tsx';

interface CaseRef {
  id: number;
  code: string;
  name: string;
}

/** Create case: a new case (description, type, agencies) or an existing one. */
export function CaseFields({ onReady }: { onReady: (request: Partial<Request> | null) => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [caseTypeId, setCaseTypeId] = useState('');
  const [agencies, setAgencies] = useState('');
  const [existing, setExisting] = useState<CaseRef | null>(null);
  const [input, setInput] = useState('');
  const search = useDebounced(input.trim(), 250);
  const caseTypes = useQuery({
    queryKey: ['documents', 'caseTypes'],
    queryFn: ({ signal }) => referenceApi.caseTypes(signal),
    staleTime: 60_000,
  });
  const cases = useQuery({
    queryKey: ['documents', 'cases', search],
    queryFn: ({ signal }) => referenceApi.cases(search, signal),
    enabled: mode === 'existing',
  });
  useEffect(() => {
    if (mode === 'existing') onReady(existing ? { caseId: existing.id } : null);
    else
      onReady(
        name.trim()
          ? {
              case: {
                name: name.trim(),
                code: code.trim() || null,
                caseTypeId: caseTypeId ? Number(caseTypeId) : null,
                agencies: agencies.trim() || null,
              },
            }
          : null,
      );
  }, [mode, name, code, caseTypeId, agencies, existing, onReady]);
  const activeTypes = (caseTypes.data ?? []).filter((row: SettingOption) => row.active !== false);
  return (
    <Stack spacing={2}>
      <RadioGroup row value={mode} onChange={(event) => setMode(event.target.value as 'new' | 'existing')}>
        <FormControlLabel
          value="new"
          control={<Radio slotProps={{ input: { 'data-testid': 'case-mode-new' } as object }} />}
          label={t('docs.actions.newCase')}
        />
        <FormControlLabel
          value="existing"
          control={<Radio slotProps={{ input: { 'data-testid': 'case-mode-existing' } as object }} />}
          label={t('docs.actions.existingCase')}
        />
      </RadioGroup>
      {mode === 'new' ? (
        <>
          <TextField
            label={t('docs.actions.caseName')}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'case-name', maxLength: 500 } }}
          />
          <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 }}>
            <TextField
              label={t('docs.actions.caseCode')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'case-code', maxLength: 60 } }}
            />
            <TextField
              select
              label={t('docs.actions.caseType')}
              value={caseTypeId}
              onChange={(event) => setCaseTypeId(event.target.value)}
              slotProps={{
                select: { native: true },
                inputLabel: { shrink: true },
                htmlInput: { 'data-testid': 'case-type' },
              }}
            >
              <option value="">{t('docs.form.none')}</option>
              {activeTypes.map((row) => (
                <option key={row.id} value={row.id}>
                  {optionLabel(row)}
                </option>
              ))}
            </TextField>
          </Box>
          <TextField
            label={t('docs.actions.agencies')}
            value={agencies}
            onChange={(event) => setAgencies(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'case-agencies', maxLength: 1000 } }}
          />
        </>
      ) : (
        <Autocomplete<CaseRef>
          options={cases.data ?? []}
          loading={cases.isFetching}
          value={existing}
          filterOptions={(items) => items}
          onChange={(_event, next) => setExisting(next)}
          onInputChange={(_event, next) => setInput(next)}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          getOptionLabel={(option) => `${option.code} · ${option.name}`}
          noOptionsText={t('docs.actions.noResults')}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('docs.actions.chooseCase')}
              helperText={t('docs.actions.searchCase')}
              required
              slotProps={{
                ...params.slotProps,
                htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'case-existing' },
              }}
            />
          )}
        />
      )}
    </Stack>
  );
}
