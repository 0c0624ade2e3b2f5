import './i18n/index.ts';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import CloudQueueOutlinedIcon from '@mui/icons-material/CloudQueueOutlined';
import PlaceOutlinedIcon from '@mui/icons-material/PlaceOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { periodStates, type ReadoutRow, unableReasonIds, utilityDay, writtenCode } from '@protocol/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import { useOnline } from '../../components/OfflineIndicator.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { langFromPath, localizePath } from '../../lib/lang.ts';
import { useCan } from '../../lib/permissions.ts';
import { CheckChips } from './EntryGrid.tsx';
import { type Refusal, useFieldQueue, useFieldSheet } from './fieldStore.ts';
import { LowerReadingDialog } from './LowerReadingDialog.tsx';
import type { QueuedReading } from './outbox.ts';
import { type PeriodKey, refusalOf, useRoutes } from './readoutsApi.ts';
import { checkRow, needsReason } from './rowCheck.ts';
import { registerFieldWorker } from './serviceWorker.ts';

/**
 * /readouts/field: the meter reader's phone. One meter at a time in route order, a large numeric
 * input with the checks as they type; what is typed goes to the browser's queue first and is sent
 * when there is a connection, so the round goes on without one and survives a reload.
 */
export default function FieldPage() {
  const { t } = useTranslation();
  useAppBar({ title: t('readoutsUi.field.title') });
  const [params, setParams] = useSearchParams();
  const routes = useRoutes();
  const day = utilityDay(new Date());
  const routeId = Number(params.get('route')) || routes.data?.[0]?.id || null;
  const year = Number(params.get('year')) || Number(day.slice(0, 4));
  const months = Number(params.get('months')) || 4;
  const period = Number(params.get('period')) || Math.floor((Number(day.slice(5, 7)) - 1) / months) + 1;
  const key = useMemo<PeriodKey | null>(
    () => (routeId ? { routeId, year, period } : null),
    [routeId, year, period],
  );
  const field = useFieldSheet(key);
  const { queued, refusals, enqueue } = useFieldQueue(key);
  const online = useOnline();
  const lang = langFromPath(useLocation().pathname);

  const { refetch: refetchSheet } = field;
  const { refetch: refetchRoutes } = routes;
  useEffect(() => {
    // Once the worker is there, the route and its sheet are asked again through it, to be kept.
    void registerFieldWorker().then((controlled) => {
      if (controlled) void Promise.all([refetchRoutes(), refetchSheet()]);
    });
  }, [refetchRoutes, refetchSheet]);

  const sheet = field.data?.sheet;
  const rows = sheet?.rows ?? [];
  const queuedOf = new Map(
    queued.filter((q) => q.body.routeId === routeId).map((q) => [q.body.consumerId, q]),
  );
  const done = rows.filter((r) => r.reading !== null || queuedOf.has(r.consumerId)).length;
  const [index, setIndex] = useState<number | null>(null);
  // Start at the first meter not yet read.
  const current =
    index ??
    Math.max(
      0,
      rows.findIndex((r) => r.reading === null && !queuedOf.has(r.consumerId)),
    );
  const row = rows[current];

  return (
    // Full screen over the shell: on the reader's phone it is the whole app (installed, it opens here).
    <Box
      data-testid="field-page"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (theme) => theme.zIndex.modal,
        bgcolor: 'background.default',
        overflowY: 'auto',
      }}
    >
      <Box
        sx={{
          position: 'sticky',
          top: 0,
          zIndex: 1,
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          px: 1,
          py: 1,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
        }}
      >
        <IconButton
          component={RouterLink}
          to={localizePath(`/readouts?route=${routeId ?? ''}&year=${year}&period=${period}`, lang)}
          color="inherit"
          aria-label={t('readoutsUi.field.toOffice')}
          data-testid="field-exit"
        >
          <ArrowBackIcon />
        </IconButton>
        <Typography variant="h6" component="h1" sx={{ flex: 1, fontSize: '1.1rem' }} noWrap>
          {t('readoutsUi.field.title')}
        </Typography>
        <SyncChip online={online} pending={queued.length} />
      </Box>
      <Box sx={{ maxWidth: 560, mx: 'auto', p: 1.5, pb: 12 }}>
        <TextField
          select
          fullWidth
          size="small"
          label={t('readoutsUi.route')}
          value={routeId ?? ''}
          onChange={(e) => {
            setIndex(null);
            setParams(
              { route: e.target.value, year: String(year), period: String(period) },
              { replace: true },
            );
          }}
          sx={{ mb: 1 }}
        >
          {(routes.data ?? []).map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.code} · {r.description}
            </MenuItem>
          ))}
          {routes.data === undefined && routeId && <MenuItem value={routeId}>{routeId}</MenuItem>}
        </TextField>
        {sheet && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="field-progress">
            {sheet.period.name} · {t('readoutsUi.progress', { done, total: rows.length })}
          </Typography>
        )}
        {(field.data?.offline || !online) && (
          <Alert severity="info" sx={{ mb: 1.5 }} data-testid="field-offline">
            {t('readoutsUi.field.offlineSheet')}
          </Alert>
        )}
        {field.isError && <RetryAlert error={field.error} onRetry={() => void field.refetch()} />}
        {sheet && rows.length === 0 && <Alert severity="info">{t('readoutsUi.noMeters')}</Alert>}
        {sheet && row && (
          <MeterCard
            key={row.consumerId}
            row={row}
            position={current}
            total={rows.length}
            thresholds={sheet.thresholds}
            locked={sheet.period.state === periodStates.finalized}
            queued={queuedOf.get(row.consumerId)}
            refusal={refusals.find((r) => r.consumerId === row.consumerId)}
            onMove={(to) => setIndex(Math.min(Math.max(to, 0), rows.length - 1))}
            onSave={async (reading, unable, note) => {
              await enqueue(row.consumerId, reading, unable, note);
              if (current < rows.length - 1) setIndex(current + 1);
            }}
          />
        )}
      </Box>
    </Box>
  );
}

function SyncChip({ online, pending }: { online: boolean; pending: number }) {
  const { t } = useTranslation();
  if (pending > 0)
    return (
      <Chip
        color="warning"
        size="small"
        icon={online ? <CloudQueueOutlinedIcon /> : <CloudOffOutlinedIcon />}
        label={t('readoutsUi.field.pending', { count: pending })}
        data-testid="field-pending"
      />
    );
  return (
    <Chip
      size="small"
      sx={{ bgcolor: 'background.paper' }}
      color={online ? 'success' : 'default'}
      variant="outlined"
      icon={online ? <CheckCircleOutlineIcon /> : <CloudOffOutlinedIcon />}
      label={t(online ? 'readoutsUi.field.allSent' : 'readoutsUi.field.offline')}
      data-testid="field-synced"
    />
  );
}

function MeterCard({
  row,
  position,
  total,
  thresholds,
  locked,
  queued,
  refusal,
  onMove,
  onSave,
}: {
  row: ReadoutRow;
  position: number;
  total: number;
  thresholds: Parameters<typeof checkRow>[2];
  locked: boolean;
  queued: QueuedReading | undefined;
  refusal: Refusal | undefined;
  onMove: (to: number) => void;
  onSave: (reading: number | null, unable: number, note: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const known = queued?.body ?? row.reading;
  const [reading, setReading] = useState(known?.reading == null ? '' : String(known.reading));
  const [unable, setUnable] = useState(known?.unableReason ?? 0);
  const [note, setNote] = useState(known?.note ?? '');
  const input = useRef<HTMLInputElement | null>(null);
  const check = checkRow(row, reading, thresholds, note);
  const [asking, setAsking] = useState(false);
  const disabled = locked || !can('readouts:write') || row.meterId === null;
  const ready = reading !== '' || unable > 0;

  useEffect(() => {
    input.current?.focus();
  }, []);

  const save = () => {
    if (!ready || disabled) return;
    // A lower reading nothing explains is sent only with its reason.
    if (needsReason(check)) setAsking(true);
    else void onSave(reading === '' ? null : Number(reading), unable, note);
  };
  const status = refusal
    ? { severity: 'error' as const, text: refusalOf(t, refusal.error) }
    : queued
      ? { severity: 'warning' as const, text: t('readoutsUi.field.queued') }
      : row.reading
        ? { severity: 'success' as const, text: t('readoutsUi.field.saved') }
        : null;

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="field-meter" data-consumer={row.consumerId}>
      {asking && (
        <LowerReadingDialog
          reading={reading}
          previous={row.previousReading ?? 0}
          serial={row.serialNumber ?? writtenCode(row.code)}
          onCancel={() => setAsking(false)}
          onReason={(reason) => {
            setAsking(false);
            setNote(reason);
            void onSave(Number(reading), unable, reason);
          }}
        />
      )}
      <Typography variant="overline" color="text.secondary">
        {t('readoutsUi.field.position', { position: position + 1, total })}
      </Typography>
      <Typography variant="h6" sx={{ lineHeight: 1.3 }}>
        {row.ownerName}
      </Typography>
      <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
        {writtenCode(row.code)} · {t('readoutsUi.col.meter')} {row.serialNumber ?? t('readoutsUi.noMeter')}
        {row.direction === -1 ? ' ↺' : ''}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {row.supplyAddress}
      </Typography>
      {row.locationNotes && (
        <Box sx={{ display: 'flex', gap: 0.75, mt: 1, color: 'info.main' }} data-testid="field-location">
          <PlaceOutlinedIcon fontSize="small" />
          <Typography variant="body2">{row.locationNotes}</Typography>
        </Box>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 1.5, mb: 1 }}>
        <Typography variant="body2" data-testid="field-previous">
          {t('readoutsUi.col.previous')}: <strong>{row.previousReading ?? '—'}</strong>
          {row.previousEstimate ? ` (${t('readoutsUi.estimated')})` : ''} · {formatDate(row.previousDate)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('readoutsUi.col.average')}: {row.average ?? '—'}
        </Typography>
      </Box>
      <TextField
        fullWidth
        value={reading}
        disabled={disabled || unable > 0}
        inputRef={input}
        onChange={(e) => setReading(e.target.value.replace(/\D/g, '').slice(0, 9))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            save();
          }
        }}
        placeholder={t('readoutsUi.col.reading')}
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            enterKeyHint: 'next',
            'aria-label': t('readoutsUi.readingLabel', { serial: row.serialNumber ?? writtenCode(row.code) }),
            'data-testid': 'field-reading',
            style: {
              fontSize: '2.5rem',
              textAlign: 'center',
              fontVariantNumeric: 'tabular-nums',
              padding: 12,
            },
          },
        }}
      />
      <Box sx={{ minHeight: 40, display: 'flex', alignItems: 'center', gap: 1, my: 1 }}>
        {check?.consumption != null && (
          <Typography variant="body2" data-testid="field-consumption">
            {t('readoutsUi.col.consumption')}: <strong>{check.consumption}</strong>
          </Typography>
        )}
        {check && <CheckChips basis={check.basis} flags={check.flags} multiple={thresholds.multiple} />}
      </Box>
      {status && (
        <Alert severity={status.severity} sx={{ mb: 1.5 }} data-testid="field-status">
          {status.text}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        <Button
          size="large"
          variant="outlined"
          disabled={position === 0}
          onClick={() => onMove(position - 1)}
          startIcon={<ArrowBackIcon />}
          aria-label={t('readoutsUi.field.previousMeter')}
          data-testid="field-back"
        >
          {t('readoutsUi.field.back')}
        </Button>
        <Button
          size="large"
          variant="contained"
          fullWidth
          disabled={!ready || disabled}
          onClick={save}
          endIcon={<ArrowForwardIcon />}
          data-testid="field-save"
        >
          {t('readoutsUi.field.saveNext')}
        </Button>
        <Button
          size="large"
          variant="outlined"
          disabled={position >= total - 1}
          onClick={() => onMove(position + 1)}
          aria-label={t('readoutsUi.field.nextMeter')}
          data-testid="field-skip"
        >
          <ArrowForwardIcon />
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
        {t('readoutsUi.col.unable')}
      </Typography>
      <ToggleButtonGroup
        exclusive
        fullWidth
        size="small"
        value={unable}
        disabled={disabled || reading !== ''}
        onChange={(_, value: number | null) => setUnable(value ?? 0)}
        sx={{ mb: 1.5 }}
      >
        {unableReasonIds.map((id) => (
          <ToggleButton key={id} value={id} data-testid={`field-unable-${id}`}>
            {t(`readoutsUi.unable_${id}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        fullWidth
        size="small"
        label={t('readoutsUi.col.note')}
        value={note}
        disabled={disabled}
        onChange={(e) => setNote(e.target.value.slice(0, 500))}
        sx={{ mb: 1.5 }}
      />
    </Paper>
  );
}
