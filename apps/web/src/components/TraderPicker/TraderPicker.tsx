import './i18n/index.ts';
import '../../i18n/lists.ts';
import AddIcon from '@mui/icons-material/Add';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { isValidVatNumber, normalizeVatNumber } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api.ts';
import { errorMessage, fieldMessage } from '../../lib/errors.ts';
import { useCan } from '../../lib/permissions.ts';
import { useNotify } from '../Notifier.tsx';
import { traderLabel, traderPickerApi, tradersKey } from './api.ts';

/** What a picker holds: enough to show and to send (the id). */
export interface PickedTrader {
  id: number;
  fullname: string | null;
  vatnumber: string | null;
}

interface Props {
  value: PickedTrader | null;
  onChange: (trader: PickedTrader | null) => void;
  label?: string;
  required?: boolean;
  error?: string;
  disabled?: boolean;
  /** Offer 'quick create' (default: when the operator may write traders). */
  allowCreate?: boolean;
  testId?: string;
}

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/**
 * A compact trader autocomplete: searches name, ΑΦΜ and code (GET /api/traders/search?search=),
 * with a 'quick create' dialog (name, ΑΦΜ, individual). The input carries `trader-picker`.
 */
export function TraderPicker({
  value,
  onChange,
  label,
  required,
  error,
  disabled,
  allowCreate,
  testId = 'trader-picker',
}: Props) {
  const { t } = useTranslation();
  const can = useCan();
  const [input, setInput] = useState('');
  const [creating, setCreating] = useState<string | null>(null);
  const search = useDebounced(input.trim(), 250);
  const enabled = search.length >= 2 && search !== traderLabel(value ?? {});
  const results = useQuery({
    queryKey: [...tradersKey, 'picker', search],
    queryFn: ({ signal }) =>
      traderPickerApi.search(new URLSearchParams({ search, size: '20', page: '0' }).toString(), signal),
    enabled,
    staleTime: 30_000,
  });
  const options: PickedTrader[] = enabled ? (results.data?.content ?? []) : value ? [value] : [];
  const mayCreate = allowCreate ?? can('traders:write');

  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      <Autocomplete<PickedTrader>
        fullWidth
        size="small"
        disabled={disabled}
        value={value}
        options={options}
        loading={results.isFetching}
        filterOptions={(items) => items}
        isOptionEqualToValue={(option, selected) => option.id === selected.id}
        getOptionLabel={(option) => traderLabel(option)}
        onChange={(_event, next) => onChange(next)}
        onInputChange={(_event, next) => setInput(next)}
        noOptionsText={search.length < 2 ? t('traderPicker.typeMore') : t('traderPicker.none')}
        renderOption={({ key, ...props }, option) => (
          <li key={key} {...props}>
            <Box>
              <Typography variant="body2">{traderLabel(option)}</Typography>
              {option.vatnumber && (
                <Typography variant="caption" color="text.secondary">
                  {t('traders.field.vatnumber')}: {option.vatnumber}
                </Typography>
              )}
            </Box>
          </li>
        )}
        renderInput={(params) => (
          <TextField
            {...params}
            label={label ?? t('traderPicker.label')}
            required={required}
            error={Boolean(error)}
            helperText={error}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId },
            }}
          />
        )}
      />
      {mayCreate && (
        <Tooltip title={t('traderPicker.quickCreate')}>
          <span>
            <IconButton
              onClick={() => setCreating(input.trim())}
              disabled={disabled}
              aria-label={t('traderPicker.quickCreate')}
              data-testid={`${testId}-create`}
            >
              <AddIcon />
            </IconButton>
          </span>
        </Tooltip>
      )}
      {creating !== null && (
        <QuickCreateDialog
          initial={creating}
          onClose={() => setCreating(null)}
          onCreated={(trader) => {
            setCreating(null);
            onChange(trader);
          }}
        />
      )}
    </Box>
  );
}

/** Quick create: name, ΑΦΜ and individual; the rest is completed on the trader's page. */
function QuickCreateDialog({
  initial,
  onClose,
  onCreated,
}: {
  initial: string;
  onClose: () => void;
  onCreated: (trader: PickedTrader) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const titleId = useId();
  const queryClient = useQueryClient();
  const looksLikeVat = /^\d{8,9}$/.test(initial);
  const [name, setName] = useState(looksLikeVat ? '' : initial);
  const [vatnumber, setVatnumber] = useState(looksLikeVat ? initial : '');
  const [individual, setIndividual] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; vatnumber?: string }>({});

  const create = useMutation({
    mutationFn: () => {
      const [lastname, ...rest] = name.trim().split(/\s+/);
      return traderPickerApi.create(
        individual
          ? {
              individual,
              lastname: lastname ?? '',
              firstname: rest.join(' '),
              vatnumber: vatnumber.trim() || null,
            }
          : { individual, fullname: name.trim(), vatnumber: vatnumber.trim() || null },
      );
    },
    meta: { errorSnackbar: false },
    onSuccess: (trader) => {
      void queryClient.invalidateQueries({ queryKey: tradersKey, exact: false });
      if (trader.duplicates.length > 0) {
        notify(t('traderPicker.duplicates', { count: trader.duplicates.length }), 'warning');
      } else notify(t('traderPicker.created', { name: traderLabel(trader) }), 'success');
      onCreated(trader);
    },
    onError: (failure) => {
      const vatError = isApiError(failure) && failure.fieldErrors.find((item) => item.field === 'vatnumber');
      if (vatError) setErrors({ vatnumber: vatError.key });
      else notify(errorMessage(t, failure), 'error');
    },
  });

  const submit = () => {
    const next: typeof errors = {};
    if (!name.trim()) next.name = 'validation.required';
    else if (individual && name.trim().split(/\s+/).length < 2) next.name = 'traderPicker.nameBoth';
    if (vatnumber.trim() && !isValidVatNumber(vatnumber)) next.vatnumber = 'validation.vatnumber';
    setErrors(next);
    if (Object.keys(next).length === 0) {
      setVatnumber((value) => (value.trim() ? normalizeVatNumber(value) : ''));
      create.mutate();
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
      data-testid="trader-quick-create"
    >
      <DialogTitle id={titleId}>{t('traderPicker.quickCreate')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <FormControlLabel
            label={t('traders.field.individual')}
            control={
              <Switch
                checked={individual}
                onChange={(event) => setIndividual(event.target.checked)}
                slotProps={{ input: { 'data-testid': 'trader-quick-individual' } as object }}
              />
            }
          />
          <TextField
            autoFocus
            required
            label={individual ? t('traderPicker.nameIndividual') : t('traders.field.fullname')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={Boolean(errors.name)}
            helperText={fieldMessage(t, errors.name)}
            slotProps={{ htmlInput: { 'data-testid': 'trader-quick-name' } }}
          />
          <TextField
            label={t('traders.field.vatnumber')}
            value={vatnumber}
            onChange={(event) => setVatnumber(event.target.value)}
            error={Boolean(errors.vatnumber)}
            helperText={fieldMessage(t, errors.vatnumber)}
            slotProps={{ htmlInput: { 'data-testid': 'trader-quick-vatnumber', inputMode: 'numeric' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={submit}
          loading={create.isPending}
          data-testid="trader-quick-save"
        >
          {t('traderPicker.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
