import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  amountFromText,
  type ConsumerTransaction,
  lifecycleKinds,
  type MeterInstallation,
  meterKinds,
  type WaterMeterType,
} from '@protocol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wireDate } from '../../components/form/dates.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { consumerKey, useWaterTable } from './consumersApi.ts';

/** What the dialog records: the first meter, a swap (15) or another lifecycle transaction. */
export type MeterDialogMode = 'install' | 'transaction';

interface Props {
  consumerId: number;
  mode: MeterDialogMode;
  /** The kind a transaction starts with (15 for the swap button). */
  kind?: number;
  current: MeterInstallation | null;
  onClose: () => void;
}

const today = () => formatDate(new Date());
const KINDS = [
  lifecycleKinds.stop,
  lifecycleKinds.reconnect,
  lifecycleKinds.pullOff,
  lifecycleKinds.replacement,
  lifecycleKinds.meterReplacement,
  lifecycleKinds.misc,
];

/** Installs a meter or records a lifecycle transaction; the swap asks both meters' readings. */
export function MeterDialog({ consumerId, mode, kind: initialKind, current, onClose }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const types = useWaterTable<WaterMeterType>('/api/water/parametrics/meterTypes');
  const [kind, setKind] = useState(initialKind ?? lifecycleKinds.misc);
  const [values, setValues] = useState<Record<string, string>>({
    date: today(),
    reading: '',
    comments: '',
    serialNumber: '',
    meterTypeId: '',
    meterKind: String(meterKinds.analog),
    direction: '1',
    diameter: '',
    digits: '5',
    initialReading: '0',
    chargeAmount: '',
    chargeDescription: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (name: string) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));
  const newMeter = mode === 'install' || kind === lifecycleKinds.meterReplacement;
  const int = (value: string | undefined) => (value?.trim() ? Number(value) : null);
  const meterBody = () => ({
    serialNumber: values.serialNumber ?? '',
    meterTypeId: int(values.meterTypeId),
    kind: Number(values.meterKind),
    direction: Number(values.direction),
    diameter: values.diameter,
    digits: Number(values.digits),
    initialReading: int(values.initialReading) ?? 0,
  });
  const save = useMutation({
    mutationFn: (): Promise<unknown> => {
      const date = wireDate(values.date ?? '') ?? '';
      if (mode === 'install') {
        return api.post<MeterInstallation[]>(`/api/protocol/consumers/${consumerId}/meters`, {
          date,
          meter: meterBody(),
        });
      }
      return api.post<ConsumerTransaction[]>(`/api/protocol/consumers/${consumerId}/transactions`, {
        kind,
        date,
        reading: int(values.reading),
        comments: values.comments,
        newMeter: kind === lifecycleKinds.meterReplacement ? meterBody() : null,
        extraCharge: values.chargeAmount?.trim()
          ? {
              amount: amountFromText(values.chargeAmount, 'money') ?? values.chargeAmount.trim(),
              description: values.chargeDescription,
            }
          : null,
      });
    },
    meta: { errorSnackbar: false },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...consumerKey(consumerId)] });
      notify(t('waterUi.meters.saved'), 'success');
      onClose();
    },
    onError: (error) => {
      const fieldErrors = isApiError(error) ? error.fieldErrors : [];
      setErrors(
        Object.fromEntries(
          fieldErrors.map((e) => [
            e.field
              .replace(/^(meter|newMeter)\./, '')
              .replace(/^kind$/, 'kind')
              .replace(/^extraCharge\.amount$/, 'chargeAmount'),
            t(e.key, e.params),
          ]),
        ),
      );
      notify(errorMessage(t, error), 'error');
    },
  });
  const field = (
    name: string,
    label: string,
    extra: { required?: boolean; helperText?: string; numeric?: boolean } = {},
  ) => (
    <TextField
      fullWidth
      label={label}
      value={values[name] ?? ''}
      onChange={set(name)}
      required={extra.required}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? extra.helperText ?? ' '}
      slotProps={{
        htmlInput: { 'data-testid': `meter-${name}`, inputMode: extra.numeric ? 'numeric' : undefined },
      }}
    />
  );
  const chooseType = (event: { target: { value: string } }) => {
    const type = types.data?.find((row) => String(row.id) === event.target.value);
    setValues((v) => ({
      ...v,
      meterTypeId: event.target.value,
      ...(type
        ? { meterKind: String(type.meterKind), digits: String(type.digits), diameter: type.diameter ?? '' }
        : {}),
    }));
  };
  const title =
    mode === 'install'
      ? t('waterUi.meters.install')
      : kind === lifecycleKinds.meterReplacement
        ? t('waterUi.meters.swap')
        : t('waterUi.meters.newTransaction');

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="meter-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Grid container spacing={2} sx={{ pt: 1 }}>
          {mode === 'transaction' && (
            <Grid size={{ xs: 12, md: 6 }}>
              <TextField
                select
                fullWidth
                label={t('waterUi.meters.kind')}
                value={kind}
                onChange={(e) => setKind(Number(e.target.value) as typeof kind)}
                error={Boolean(errors.kind)}
                helperText={errors.kind ?? ' '}
                slotProps={{ htmlInput: { 'data-testid': 'meter-kind' } }}
              >
                {KINDS.map((k) => (
                  <MenuItem key={k} value={k}>
                    {t(`water.transactionKind_${k}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          )}
          <Grid size={{ xs: 12, md: 3 }}>
            {field('date', t('waterUi.meters.date'), { required: true, helperText: t('common.dateHint') })}
          </Grid>
          {mode === 'transaction' && (
            <Grid size={{ xs: 12, md: 3 }}>
              {field(
                'reading',
                kind === lifecycleKinds.meterReplacement
                  ? t('waterUi.meters.finalReading')
                  : t('waterUi.meters.reading'),
                {
                  numeric: true,
                  required: kind === lifecycleKinds.meterReplacement || kind === lifecycleKinds.pullOff,
                  helperText: current
                    ? t('waterUi.meters.previous', { reading: current.lastReading })
                    : undefined,
                },
              )}
            </Grid>
          )}
        </Grid>
        {current && mode === 'transaction' && kind === lifecycleKinds.meterReplacement && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('waterUi.meters.swapHint', { serial: current.serialNumber, reading: current.lastReading })}
          </Alert>
        )}
        {newMeter && (
          <>
            <Divider sx={{ mb: 2 }} />
            <Typography variant="subtitle2" sx={{ mb: 1.5 }}>
              {t('waterUi.meters.newMeter')}
            </Typography>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, md: 4 }}>
                {field('serialNumber', t('waterUi.meters.serialNumber'), { required: true })}
              </Grid>
              <Grid size={{ xs: 12, md: 5 }}>
                <TextField
                  select
                  fullWidth
                  label={t('waterUi.meters.meterType')}
                  value={values.meterTypeId}
                  onChange={chooseType}
                  helperText=" "
                  slotProps={{ htmlInput: { 'data-testid': 'meter-meterTypeId' } }}
                >
                  <MenuItem value="">{t('common.empty')}</MenuItem>
                  {(types.data ?? [])
                    .filter((row) => row.active)
                    .map((row) => (
                      <MenuItem key={row.id} value={String(row.id)}>
                        {`${row.code} · ${row.description}`}
                      </MenuItem>
                    ))}
                </TextField>
              </Grid>
              <Grid size={{ xs: 12, md: 3 }}>
                {field('initialReading', t('waterUi.meters.initialReading'), {
                  required: true,
                  numeric: true,
                })}
              </Grid>
              <Grid size={{ xs: 12, md: 3 }}>
                <TextField
                  select
                  fullWidth
                  label={t('waterUi.meters.meterKind')}
                  value={values.meterKind}
                  onChange={set('meterKind')}
                  helperText=" "
                >
                  {Object.values(meterKinds).map((k) => (
                    <MenuItem key={k} value={String(k)}>
                      {t(`water.meterKind_${k}`)}
                    </MenuItem>
                  ))}
                </TextField>
              </Grid>
              <Grid size={{ xs: 12, md: 3 }}>
                <TextField
                  select
                  fullWidth
                  label={t('waterUi.meters.direction')}
                  value={values.direction}
                  onChange={set('direction')}
                  helperText=" "
                >
                  {['1', '-1'].map((d) => (
                    <MenuItem key={d} value={d}>
                      {t(`water.direction_${d}`)}
                    </MenuItem>
                  ))}
                </TextField>
              </Grid>
              <Grid size={{ xs: 12, md: 3 }}>{field('diameter', t('waterUi.meters.diameter'))}</Grid>
              <Grid size={{ xs: 12, md: 3 }}>
                {field('digits', t('waterUi.meters.digits'), { required: true, numeric: true })}
              </Grid>
            </Grid>
          </>
        )}
        {mode === 'transaction' && (
          <>
            <Divider sx={{ mb: 2 }} />
            <Grid container spacing={2}>
              <Grid size={{ xs: 12 }}>
                {field('comments', t('waterUi.meters.comments'), {
                  helperText: t('waterUi.meters.commentsHint'),
                })}
              </Grid>
              <Grid size={{ xs: 12, md: 3 }}>
                {field('chargeAmount', t('waterUi.meters.chargeAmount'), {
                  helperText: t('waterUi.meters.chargeHint'),
                })}
              </Grid>
              <Grid size={{ xs: 12, md: 9 }}>
                {field('chargeDescription', t('waterUi.meters.chargeDescription'))}
              </Grid>
            </Grid>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="meter-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => save.mutate()}
          disabled={save.isPending}
          data-testid="meter-save"
        >
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
