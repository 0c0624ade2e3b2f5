import './i18n/index.ts';
import TransformOutlinedIcon from '@mui/icons-material/TransformOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import {
  type FinanceDocumentListItem,
  formatMoney,
  TRANSFORMATION_TARGET_KINDS,
  type TransformationRequest,
  type TransformationResult,
  transformationModes,
  utilityDay,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isShownDate, wireDate } from '../../components/form/dates.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type PickedTrader, TraderPicker } from '../../components/TraderPicker/TraderPicker.tsx';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { useSeries } from './api.ts';
import { DayField } from './DayField.tsx';
import { documentNumber } from './DocumentsListPage.tsx';

/**
 * /finance/transformation: pick finalized delivery notes or orders (filtered by trader and dates),
 * choose the mode (1 one to one, 2 one per trader, 3 all in one) and the invoice series, see what
 * would be created, then confirm.
 */
export default function TransformationPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const localize = useLocalize();
  const notify = useNotify();
  const can = useCan();
  const client = useQueryClient();
  useAppBar({ title: t('finance.menu') });
  const [trader, setTrader] = useState<PickedTrader | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [mode, setMode] = useState<TransformationRequest['mode']>(2);
  const [targetSeriesId, setTarget] = useState<number | ''>('');
  const [date, setDate] = useState(formatDate(utilityDay(new Date())));
  const [preview, setPreview] = useState<TransformationResult | null>(null);
  const { rows: allSeries } = useSeries();
  const targets = useMemo(
    () =>
      allSeries.filter(
        (s) => s.active && (TRANSFORMATION_TARGET_KINDS as readonly string[]).includes(s.kind),
      ),
    [allSeries],
  );
  const target = targetSeriesId === '' ? targets[0]?.id : targetSeriesId;

  const params = new URLSearchParams();
  if (trader) params.set('traderId', String(trader.id));
  if (from && isShownDate(from)) params.set('from', wireDate(from) ?? '');
  if (to && isShownDate(to)) params.set('to', wireDate(to) ?? '');
  const candidatesPath = `/api/finance/transformation/candidates?${params}`;
  const candidates = useQuery({
    queryKey: ['financeTransformation', candidatesPath],
    queryFn: ({ signal }) => api.get<FinanceDocumentListItem[]>(candidatesPath, { signal }),
  });
  const rows = candidates.data ?? [];
  const chosen = selected.filter((id) => rows.some((r) => r.id === id));
  const body = (): TransformationRequest => ({
    mode,
    sourceIds: chosen,
    targetSeriesId: target ?? 0,
    date: wireDate(date) ?? '',
  });

  const previewing = useMutation({
    mutationFn: () => api.post<TransformationResult>('/api/finance/transformation/preview', body()),
    onSuccess: setPreview,
    onError: (failure) => notify(errorMessage(t, failure), 'error'),
  });
  const transforming = useMutation({
    mutationFn: () => api.post<TransformationResult>('/api/finance/transformation', body()),
    onSuccess: (result) => {
      notify(t('finance.transformation.done', { count: result.ids.length }), 'success');
      setPreview(null);
      setSelected([]);
      void client.invalidateQueries({ queryKey: ['financeTransformation'] });
      const [first] = result.ids;
      if (result.ids.length === 1 && first) navigate(localize(`/finance/documents/${first}/edit`));
    },
    onError: (failure) => notify(errorMessage(t, failure), 'error'),
  });
  const toggle = (id: number) =>
    setSelected((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));

  return (
    <Box data-testid="finance-transformation">
      <PageHeader
        title={t('finance.transformation.title')}
        subtitle={t('finance.transformation.subtitle')}
        avatar={<TransformOutlinedIcon />}
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <TraderPicker
              value={trader}
              onChange={setTrader}
              label={t('finance.documents.trader')}
              testId="transformation-trader"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <DayField
              label={t('finance.transformation.from')}
              value={from}
              onChange={setFrom}
              testId="transformation-from"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <DayField
              label={t('finance.transformation.to')}
              value={to}
              onChange={setTo}
              testId="transformation-to"
            />
          </Grid>
        </Grid>
      </Paper>
      <Paper variant="outlined" sx={{ mb: 2 }}>
        {candidates.isPending ? (
          <Skeleton variant="rounded" height={200} />
        ) : rows.length === 0 ? (
          <Alert severity="info" data-testid="transformation-none">
            {t('finance.error.noAvailableDocuments')}
          </Alert>
        ) : (
          <Table size="small" data-testid="transformation-candidates">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={chosen.length === rows.length}
                    indeterminate={chosen.length > 0 && chosen.length < rows.length}
                    onChange={(e) => setSelected(e.target.checked ? rows.map((r) => r.id) : [])}
                    slotProps={{ input: { 'aria-label': t('finance.transformation.all') } }}
                  />
                </TableCell>
                <TableCell>{t('finance.documents.number')}</TableCell>
                <TableCell>{t('finance.documents.date')}</TableCell>
                <TableCell>{t('finance.series.kind')}</TableCell>
                <TableCell>{t('finance.documents.trader')}</TableCell>
                <TableCell align="right">{t('finance.documents.payable')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow
                  key={row.id}
                  hover
                  onClick={() => toggle(row.id)}
                  sx={{ cursor: 'pointer' }}
                  data-testid={`candidate-${row.id}`}
                >
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={chosen.includes(row.id)}
                      slotProps={{ input: { 'aria-label': documentNumber(row, '') } }}
                    />
                  </TableCell>
                  <TableCell>{documentNumber(row, '')}</TableCell>
                  <TableCell>{formatDate(row.date)}</TableCell>
                  <TableCell>{t(`finance.series.kind_${row.seriesKind}`)}</TableCell>
                  <TableCell>{row.traderName}</TableCell>
                  <TableCell align="right">{formatMoney(row.payable, lang)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Grid container spacing={2} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 12, md: 3 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('finance.transformation.mode')}
              value={mode}
              onChange={(e) => setMode(Number(e.target.value) as TransformationRequest['mode'])}
              slotProps={{ htmlInput: { 'data-testid': 'transformation-mode' } }}
            >
              {transformationModes.map((m) => (
                <MenuItem key={m} value={m} data-testid={`transformation-mode-${m}`}>
                  {t(`finance.transformation.mode_${m}`)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('finance.transformation.target')}
              value={target ?? ''}
              onChange={(e) => setTarget(Number(e.target.value))}
            >
              {targets.map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.code} · {s.descr}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <DayField
              label={t('finance.documents.date')}
              value={date}
              onChange={setDate}
              testId="transformation-date"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }} sx={{ textAlign: 'right' }}>
            <Button
              variant="contained"
              disabled={chosen.length === 0 || !can('finance:write') || !target}
              loading={previewing.isPending}
              onClick={() => previewing.mutate()}
              data-testid="transformation-preview"
            >
              {t('finance.transformation.preview', { count: chosen.length })}
            </Button>
          </Grid>
        </Grid>
      </Paper>
      <Dialog
        open={preview !== null}
        onClose={() => setPreview(null)}
        maxWidth="md"
        fullWidth
        data-testid="transformation-dialog"
      >
        <DialogTitle>
          {t('finance.transformation.previewTitle', { count: preview?.documents.length ?? 0 })}
        </DialogTitle>
        <DialogContent>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('finance.documents.trader')}</TableCell>
                <TableCell>{t('finance.transformation.sources')}</TableCell>
                <TableCell align="right">{t('finance.form.lines')}</TableCell>
                <TableCell align="right">{t('finance.documents.net')}</TableCell>
                <TableCell align="right">{t('finance.documents.vat')}</TableCell>
                <TableCell align="right">{t('finance.documents.payable')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {preview?.documents.map((doc) => (
                <TableRow key={doc.sourceIds.join('-')} data-testid="transformation-result">
                  <TableCell>{doc.traderName ?? t('finance.pdf.retailCustomer')}</TableCell>
                  <TableCell>{doc.sources.join(', ')}</TableCell>
                  <TableCell align="right">{doc.lines}</TableCell>
                  <TableCell align="right">{formatMoney(doc.net, lang)}</TableCell>
                  <TableCell align="right">{formatMoney(doc.vat, lang)}</TableCell>
                  <TableCell align="right">{formatMoney(doc.payable, lang)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPreview(null)}>{t('finance.transformation.cancel')}</Button>
          <Button
            variant="contained"
            loading={transforming.isPending}
            onClick={() => transforming.mutate()}
            data-testid="transformation-confirm"
          >
            {t('finance.transformation.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
