import './i18n/index.ts';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import PhoneAndroidOutlinedIcon from '@mui/icons-material/PhoneAndroidOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  periodName,
  periodStates,
  type ReadoutRow,
  type ReadoutSheet,
  utilityDay,
} from '@protocol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { saveFile } from '../../lib/files.ts';
import { localizePath } from '../../lib/lang.ts';
import { notify } from '../../lib/notifier.ts';
import { useCan } from '../../lib/permissions.ts';
import { EntryGrid } from './EntryGrid.tsx';
import { ImportPanel } from './ImportPanel.tsx';
import { ReviewList } from './ReviewList.tsx';
import { type PeriodKey, sheetKey, useRoutes, useSheet } from './readoutsApi.ts';

const stateColor = { 0: 'default', 1: 'info', 9: 'success' } as const;

/** The period of a day for a periodicity of `months` months. */
const periodOfDay = (day: string, months: number) => Math.floor((Number(day.slice(5, 7)) - 1) / months) + 1;

/** /readouts: a route's period, its keyboard-fast entry grid, its review list and its close. */
export default function ReadoutsPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const queryClient = useQueryClient();
  useAppBar({ title: t('readoutsUi.title') });
  const [params, setParams] = useSearchParams();
  const routes = useRoutes();
  const day = utilityDay(new Date());
  const routeId = Number(params.get('route')) || routes.data?.[0]?.id || null;
  const year = Number(params.get('year')) || Number(day.slice(0, 4));
  const [months, setMonths] = useState(4);
  const period = Number(params.get('period')) || periodOfDay(day, months);
  const key = useMemo<PeriodKey | null>(
    () => (routeId ? { routeId, year, period } : null),
    [routeId, year, period],
  );
  const sheet = useSheet(key);
  const [tab, setTab] = useState(params.get('tab') ?? 'entry');
  const [held, setHeld] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [finalizing, setFinalizing] = useState(false);
  const lang = i18n.language === 'en' ? 'en' : 'el';

  useEffect(() => {
    if (sheet.data) {
      setMonths(sheet.data.period.months);
      setHeld(sheet.data.period.heldBy !== null);
    }
  }, [sheet.data]);

  const choose = (change: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) next.set(k, v);
    setParams(next, { replace: true });
  };
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ['readouts'] }),
    [queryClient],
  );
  const onHeld = useCallback((value: boolean) => setHeld(value), []);
  // A saved row updates the sheet in the cache: the header's state and progress follow the grid.
  const onSaved = useCallback(
    (row: ReadoutRow) =>
      queryClient.setQueryData<ReadoutSheet>(sheetKey(key), (old) =>
        old
          ? {
              ...old,
              period: { ...old.period, state: Math.max(old.period.state, periodStates.editing) },
              rows: old.rows.map((r) => (r.consumerId === row.consumerId ? row : r)),
            }
          : old,
      ),
    [queryClient, key],
  );

  const finalize = async () => {
    if (!key) return;
    setFinalizing(true);
    try {
      const result = await api.post<{ estimated: number; noEstimate: number }>('/api/readouts/finalize', key);
      if (result.noEstimate > 0) {
        notify(
          t('readoutsUi.finalizedNoEstimate', { count: result.estimated, noEstimate: result.noEstimate }),
          'warning',
        );
        setTab('review');
        choose({ tab: 'review' });
      } else notify(t('readoutsUi.finalized', { count: result.estimated }), 'success');
      setConfirm(false);
      refresh();
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setFinalizing(false);
    }
  };

  const sheetFile = async (format: 'pdf' | 'csv' | 'xlsx') => {
    if (!key) return;
    const url = `/api/readouts/route-sheet?routeIds=${key.routeId}&year=${key.year}&period=${key.period}&format=${format}`;
    try {
      await saveFile(url, `route-sheet-${key.year}-${key.period}.${format}`);
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    }
  };

  const data = sheet.data;
  const state = data?.period.state ?? 0;
  // Read, or noted as unable to read (a meter the close could not estimate is neither).
  const done =
    data?.rows.filter((r) => r.reading && (r.reading.reading !== null || r.reading.unableReason !== null))
      .length ?? 0;
  return (
    <Box data-testid="readouts-page">
      <PageHeader
        title={t('readoutsUi.title')}
        avatar={<SpeedOutlinedIcon />}
        subtitle={
          data ? (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
              <span data-testid="period-name">{data.period.name}</span>
              <Chip
                size="small"
                color={stateColor[state as keyof typeof stateColor] ?? 'default'}
                label={t(`readoutsUi.state_${state}`)}
                data-testid="period-state"
              />
              <span>· {t('readoutsUi.progress', { done, total: data.rows.length })}</span>
              {data.period.defuser && (
                <span>
                  ·{' '}
                  {t('readoutsUi.finalizedBy', {
                    user: data.period.defuser,
                    date: formatDateTime(data.period.defdate),
                  })}
                </span>
              )}
            </Box>
          ) : (
            t('readoutsUi.subtitle')
          )
        }
        tabs={[
          { value: 'entry', label: t('readoutsUi.tab_entry') },
          { value: 'review', label: t('readoutsUi.tab_review') },
          ...(can('readouts:write') ? [{ value: 'import', label: t('readoutsUi.tab_import') }] : []),
        ]}
        tab={tab}
        onTabChange={(value) => {
          setTab(value);
          choose({ tab: value });
        }}
        actions={
          data && (
            <Stack direction="row" spacing={1}>
              {key && (
                <Button
                  variant="outlined"
                  component={RouterLink}
                  to={localizePath(
                    `/readouts/field?route=${key.routeId}&year=${key.year}&period=${key.period}&months=${months}`,
                    lang,
                  )}
                  startIcon={<PhoneAndroidOutlinedIcon />}
                  data-testid="open-field"
                >
                  {t('readoutsUi.field.open')}
                </Button>
              )}
              <Button
                variant="outlined"
                startIcon={<PrintOutlinedIcon />}
                onClick={() => void sheetFile('pdf')}
                data-testid="sheet-pdf"
              >
                {t('readoutsUi.sheetPdf')}
              </Button>
              <Button
                variant="outlined"
                startIcon={<FileDownloadOutlinedIcon />}
                onClick={() => void sheetFile('csv')}
                data-testid="sheet-csv"
              >
                CSV
              </Button>
              <Button
                variant="outlined"
                startIcon={<FileDownloadOutlinedIcon />}
                onClick={() => void sheetFile('xlsx')}
                data-testid="sheet-xlsx"
              >
                Excel
              </Button>
              {can('readouts:admin') && state !== periodStates.finalized && (
                <Button
                  variant="contained"
                  startIcon={<LockOutlinedIcon />}
                  onClick={() => setConfirm(true)}
                  data-testid="finalize"
                >
                  {t('readoutsUi.finalize')}
                </Button>
              )}
            </Stack>
          )
        }
      />
      {routes.isError && <RetryAlert error={routes.error} onRetry={() => void routes.refetch()} />}
      {routes.data && routes.data.length === 0 && <Alert severity="info">{t('readoutsUi.noRoutes')}</Alert>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label={t('readoutsUi.route')}
          value={routeId ?? ''}
          onChange={(e) => choose({ route: e.target.value })}
          sx={{ minWidth: 280 }}
          slotProps={{ htmlInput: { 'data-testid': 'route-select' } }}
        >
          {(routes.data ?? []).map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.code} · {r.description} ({r.sector})
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('readoutsUi.year')}
          value={year}
          onChange={(e) => choose({ year: e.target.value })}
          sx={{ width: 130, flexShrink: 0 }}
        >
          {[0, 1, 2].map((back) => {
            const y = Number(day.slice(0, 4)) - back;
            return (
              <MenuItem key={y} value={y}>
                {y}
              </MenuItem>
            );
          })}
        </TextField>
        <TextField
          select
          size="small"
          label={t('readoutsUi.period')}
          value={period}
          onChange={(e) => choose({ period: e.target.value })}
          sx={{ minWidth: 240 }}
          slotProps={{ htmlInput: { 'data-testid': 'period-select' } }}
        >
          {Array.from({ length: Math.floor(12 / months) }, (_, i) => i + 1).map((p) => (
            <MenuItem key={p} value={p}>
              {periodName(year, p, months, lang)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {held && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="readouts-held">
          {t('readoutsUi.held', { holder: data?.period.heldBy ?? '…' })}
        </Alert>
      )}
      {sheet.isError && <RetryAlert error={sheet.error} onRetry={() => void sheet.refetch()} />}
      {data && key && tab === 'entry' && (
        <EntryGrid
          key={`${key.routeId}-${key.year}-${key.period}`}
          sheet={data}
          periodKey={key}
          onHeld={onHeld}
          onSaved={onSaved}
        />
      )}
      {key && tab === 'import' && <ImportPanel periodKey={key} months={months} onDone={refresh} />}
      {data && key && tab === 'review' && (
        <ReviewList
          periodKey={key}
          multiple={data.thresholds.multiple}
          locked={state === periodStates.finalized}
          onChanged={refresh}
        />
      )}
      {!data && sheet.isPending && key && (
        <Typography color="text.secondary" sx={{ p: 3 }}>
          …
        </Typography>
      )}
      <ConfirmDialog
        open={confirm}
        title={t('readoutsUi.finalizeTitle')}
        message={t('readoutsUi.finalizeText')}
        confirmLabel={t('readoutsUi.finalize')}
        busy={finalizing}
        onConfirm={() => void finalize()}
        onClose={() => setConfirm(false)}
      />
    </Box>
  );
}
