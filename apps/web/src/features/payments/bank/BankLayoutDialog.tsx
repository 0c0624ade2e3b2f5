import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import {
  type BankLayout,
  type BankLayoutFieldName,
  bankDateFormats,
  bankLayoutFieldNames,
  bankLayoutFormats,
  requiredBankFields,
  type SaveBankLayout,
} from '@protocol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../components/Notifier.tsx';
import { isApiError } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { bankApi } from './bankApi.ts';

type Places = Record<BankLayoutFieldName, { column: string; start: string; length: string }>;

const placesOf = (layout: BankLayout | null): Places =>
  Object.fromEntries(
    bankLayoutFieldNames.map((name) => {
      const f = layout?.fields.find((x) => x.field === name);
      return [
        name,
        { column: String(f?.column ?? ''), start: String(f?.start ?? ''), length: String(f?.length ?? '') },
      ];
    }),
  ) as Places;

const int = (value: string) => (/^\d+$/.test(value.trim()) ? Number(value) : null);

/** One layout: its format, how amounts and dates are written, and where each field sits. */
export function BankLayoutDialog({
  layout,
  readOnly,
  onClose,
}: {
  layout: BankLayout | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const label = (key: string) => t(`bankUi.layouts.${key}`);
  const [form, setForm] = useState({
    code: layout?.code ?? '',
    descr: layout?.descr ?? '',
    format: layout?.format ?? ('csv' as const),
    separator: layout?.separator ?? ';',
    headerLines: String(layout?.headerLines ?? 1),
    recordPrefix: layout?.recordPrefix ?? '',
    amountInCents: layout?.amountInCents ?? false,
    decimalComma: layout?.decimalComma ?? true,
    dateFormat: layout?.dateFormat ?? ('DD/MM/YYYY' as const),
    active: layout?.active ?? true,
  });
  const [places, setPlaces] = useState<Places>(() => placesOf(layout));
  const csv = form.format === 'csv';
  const body = (): SaveBankLayout => ({
    ...form,
    headerLines: int(form.headerLines) ?? 0,
    fields: bankLayoutFieldNames.flatMap((field) => {
      const p = places[field];
      const column = csv ? int(p.column) : null;
      const start = csv ? null : int(p.start);
      const length = csv ? null : int(p.length);
      const placed = csv ? column !== null : start !== null || length !== null;
      return placed || requiredBankFields.includes(field) ? [{ field, column, start, length }] : [];
    }),
  });
  const save = useMutation({
    mutationFn: () => bankApi.saveLayout(layout?.id ?? null, body()),
    onSuccess: () => {
      notify(label('saved'), 'success');
      void queryClient.invalidateQueries({ queryKey: ['bank', 'layouts'] });
      onClose();
    },
  });
  const fieldError = (name: string) =>
    isApiError(save.error)
      ? save.error.fieldErrors.find((f) => f.field === name || f.field.startsWith(`${name}.`))
      : undefined;
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const text = (key: 'code' | 'descr' | 'separator' | 'headerLines' | 'recordPrefix', width: number) => (
    <TextField
      size="small"
      label={label(key)}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      disabled={readOnly}
      error={Boolean(fieldError(key))}
      helperText={fieldError(key) ? t(fieldError(key)?.key ?? '', fieldError(key)?.params) : undefined}
      sx={{ width }}
      slotProps={{ htmlInput: { 'data-testid': `bank-layout-${key}` } }}
    />
  );
  const fieldsError = fieldError('fields');
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="bank-layout-dialog">
      <DialogTitle>{layout ? `${label('edit')}: ${layout.code}` : label('new')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {text('code', 140)}
            {text('descr', 420)}
          </Stack>
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <TextField
              select
              size="small"
              label={label('format')}
              value={form.format}
              onChange={(e) => set('format', e.target.value as (typeof bankLayoutFormats)[number])}
              disabled={readOnly}
              sx={{ width: 220 }}
            >
              {bankLayoutFormats.map((f) => (
                <MenuItem key={f} value={f}>
                  {label(`format_${f}`)}
                </MenuItem>
              ))}
            </TextField>
            {csv ? text('separator', 120) : text('recordPrefix', 220)}
            {text('headerLines', 160)}
            <TextField
              select
              size="small"
              label={label('dateFormat')}
              value={form.dateFormat}
              onChange={(e) => set('dateFormat', e.target.value as (typeof bankDateFormats)[number])}
              disabled={readOnly}
              sx={{ width: 180 }}
            >
              {bankDateFormats.map((f) => (
                <MenuItem key={f} value={f}>
                  {f}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {(['amountInCents', 'decimalComma', 'active'] as const).map((key) => (
              <FormControlLabel
                key={key}
                control={
                  <Checkbox
                    checked={form[key]}
                    onChange={(e) => set(key, e.target.checked)}
                    disabled={readOnly}
                  />
                }
                label={label(key)}
              />
            ))}
          </Stack>
          {fieldsError && <Alert severity="error">{t(fieldsError.key, fieldsError.params)}</Alert>}
          <Table size="small" data-testid="bank-layout-fields">
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>{label('field')}</TableCell>
                {csv ? (
                  <TableCell sx={{ fontWeight: 600 }}>{label('column')}</TableCell>
                ) : (
                  <>
                    <TableCell sx={{ fontWeight: 600 }}>{label('start')}</TableCell>
                    <TableCell sx={{ fontWeight: 600 }}>{label('length')}</TableCell>
                  </>
                )}
              </TableRow>
            </TableHead>
            <TableBody>
              {bankLayoutFieldNames.map((name) => (
                <TableRow key={name}>
                  <TableCell>
                    {label(`field_${name}`)}
                    {!requiredBankFields.includes(name) && ` (${label('optional')})`}
                  </TableCell>
                  {(csv ? (['column'] as const) : (['start', 'length'] as const)).map((part) => (
                    <TableCell key={part}>
                      <TextField
                        size="small"
                        value={places[name][part]}
                        onChange={(e) =>
                          setPlaces((p) => ({ ...p, [name]: { ...p[name], [part]: e.target.value } }))
                        }
                        disabled={readOnly}
                        sx={{ width: 100 }}
                        slotProps={{
                          htmlInput: {
                            inputMode: 'numeric',
                            'aria-label': `${label(`field_${name}`)} ${label(part)}`,
                          },
                        }}
                      />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {save.isError && !fieldsError && <Alert severity="error">{errorMessage(t, save.error)}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{label('cancel')}</Button>
        {!readOnly && (
          <Button
            variant="contained"
            onClick={() => save.mutate()}
            disabled={save.isPending}
            data-testid="bank-layout-save"
          >
            {label('save')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
