import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import './i18n/index.ts';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import UndoOutlinedIcon from '@mui/icons-material/UndoOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  FINALIZED,
  type FinanceDocument,
  formatMoney,
  issueToFieldError,
  paymentMethods,
  recordStatuses,
  saveFinanceDocumentSchema,
  utilityDay,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { TraderPicker } from '../../components/TraderPicker/TraderPicker.tsx';
import { isApiError } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { documentKey, documentsApi, useItems, useSeries, useServices } from './api.ts';
import { DayField } from './DayField.tsx';
import { DocumentLines, DocumentTaxes } from './DocumentLines.tsx';
import { documentNumber } from './DocumentsListPage.tsx';
import { type DocumentDraft, draftOf, emptyLine, liveTotals, payloadOf } from './documentDraft.ts';
import { openPdf } from './print.ts';

/** /finance/documents/create and /finance/documents/:documentId/edit. */
export default function DocumentEditPage() {
  const { documentId } = useParams();
  const id = documentId ? Number(documentId) : null;
  const query = useQuery({
    queryKey: documentKey(id ?? 0),
    queryFn: ({ signal }) => documentsApi.get(id ?? 0, signal),
    enabled: id !== null,
  });
  if (id !== null && !query.data) {
    return query.isError ? (
      <Alert severity="error">{String(query.error)}</Alert>
    ) : (
      <Skeleton variant="rounded" height={480} />
    );
  }
  return <DocumentForm key={id ?? 'new'} document={query.data ?? null} />;
}

function DocumentForm({ document }: { document: FinanceDocument | null }) {
  const { t, i18n } = useTranslation();
  const lang = useLang();
  const localize = useLocalize();
  const navigate = useNavigate();
  const notify = useNotify();
  const can = useCan();
  const client = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const { rows: allSeries } = useSeries();
  const { rows: services } = useServices();
  const { rows: items } = useItems();
  const finalized = document?.entryState === FINALIZED;
  const readOnly = finalized || !can('finance:write');
  const series = useMemo(
    () => allSeries.filter((s) => (s.active && s.kind !== 'waterBill') || s.id === document?.seriesId),
    [allSeries, document],
  );
  const [draft, setDraft] = useState<DocumentDraft>(() =>
    document
      ? draftOf(document, lang)
      : {
          seriesId: null,
          date: formatDate(utilityDay(new Date())),
          trader: null,
          paymentMethod: 3,
          status: 1,
          notes: '',
          lines: [emptyLine()],
          taxes: [],
        },
  );
  useEffect(() => {
    if (draft.seriesId === null && series[0]) setDraft((d) => ({ ...d, seriesId: series[0]?.id ?? null }));
  }, [series, draft.seriesId]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const totals = useMemo(() => liveTotals(draft), [draft]);
  const set = (patch: Partial<DocumentDraft>) => setDraft((d) => ({ ...d, ...patch }));
  // The number first: a long series name is cut, never the number.
  const title = document
    ? `${documentNumber(document, t('finance.pdf.draft'))} · ${document.seriesDescr}`
    : t('finance.form.newTitle');
  useAppBar({ title: t('finance.menu') });

  const fail = (failure: unknown) => {
    if (isApiError(failure) && failure.fieldErrors.length > 0) {
      setErrors(Object.fromEntries(failure.fieldErrors.map((e) => [e.field, t(e.key, e.params)])));
      notify(t('validation.fix_errors'), 'error');
    } else notify(errorMessage(t, failure), 'error');
  };
  const refresh = (doc: FinanceDocument) => {
    client.setQueryData(documentKey(doc.id), doc);
    void client.invalidateQueries({ queryKey: ['rowTable'] });
  };
  const print = async (doc: FinanceDocument, printIt: boolean) => {
    try {
      const shown = await openPdf(documentsApi.pdfPath(doc.id, i18n.language), printIt);
      if (!shown) notify(t('finance.form.popupBlocked'), 'warning');
    } catch (failure) {
      notify(errorMessage(t, failure), 'error');
    }
  };

  const save = useMutation({
    mutationFn: async () => {
      const payload = payloadOf(draft);
      const checked = saveFinanceDocumentSchema.safeParse(payload);
      if (!checked.success) {
        setErrors(
          Object.fromEntries(
            checked.error.issues.map(issueToFieldError).map((e) => [e.field, t(e.key, e.params)]),
          ),
        );
        throw new Error(t('validation.fix_errors'));
      }
      setErrors({});
      return document ? documentsApi.update(document.id, checked.data) : documentsApi.create(checked.data);
    },
    onSuccess: (doc) => {
      notify(t('finance.form.saved'), 'success');
      refresh(doc);
      if (!document) navigate(localize(`/finance/documents/${doc.id}/edit`), { replace: true });
    },
    onError: fail,
  });

  const finalize = useMutation({
    mutationFn: () => documentsApi.finalize(document?.id ?? 0),
    onSuccess: async (doc) => {
      notify(t('finance.form.finalized', { number: documentNumber(doc, '') }), 'success');
      refresh(doc);
      // The series' print mode: 1 print at once, 2 ask, 3 show it.
      if (doc.printype === 1) await print(doc, true);
      else if (doc.printype === 3) await print(doc, false);
      else if (doc.printype === 2) {
        const ok = await confirm({
          title: t('finance.form.askPrintTitle'),
          message: t('finance.form.askPrint', { count: doc.copies }),
          confirmLabel: t('finance.form.print'),
        });
        if (ok) await print(doc, true);
      }
    },
    onError: fail,
  });

  const credit = useMutation({
    mutationFn: () => documentsApi.creditNote(document?.id ?? 0, utilityDay(new Date())),
    onSuccess: (doc) => {
      notify(t('finance.form.creditCreated'), 'success');
      navigate(localize(`/finance/documents/${doc.id}/edit`));
    },
    onError: fail,
  });

  const remove = useMutation({
    mutationFn: () => documentsApi.remove(document?.id ?? 0),
    onSuccess: () => {
      notify(t('finance.form.deleted'), 'success');
      navigate(localize('/finance/documents'));
    },
    onError: fail,
  });

  const onFinalize = async () => {
    const ok = await confirm({
      title: t('finance.form.finalizeTitle'),
      message: t('finance.form.finalizeMessage'),
      confirmLabel: t('finance.form.finalize'),
    });
    if (!ok) return;
    // What is finalized is what the form shows: unsaved changes are saved first.
    try {
      await save.mutateAsync();
    } catch {
      return;
    }
    finalize.mutate();
  };
  const seriesOfDraft = allSeries.find((s) => s.id === draft.seriesId);
  const money = (value: { toString(): string }) => formatMoney(value.toString(), lang);
  const dirtyAfterSave = document !== null && !finalized;

  return (
    <Box data-testid="finance-document-form">
      {confirmDialog}
      <PageHeader
        title={title}
        subtitle={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Chip
              size="small"
              color={finalized ? 'success' : 'default'}
              icon={finalized ? <LockOutlinedIcon /> : undefined}
              label={t(`finance.documents.entryState_${document?.entryState ?? 0}`)}
              data-testid="document-entry-state"
            />
            {document?.relatedDocumentId && (
              <Chip size="small" variant="outlined" label={t('finance.form.creditOf')} />
            )}
          </Stack>
        }
        avatar={<ReceiptLongOutlinedIcon />}
        audit={document ?? undefined}
        actions={
          <Stack direction="row" spacing={1}>
            {document && (
              <Button
                variant="outlined"
                startIcon={<PrintOutlinedIcon />}
                onClick={() => print(document, false)}
                data-testid="document-print"
              >
                {t('finance.form.print')}
              </Button>
            )}
            {finalized && document?.mydataType && can('mydata:read') && (
              <Button
                variant="outlined"
                startIcon={<CloudUploadOutlinedIcon />}
                component={RouterLink}
                to={localize(`/mydata/documents/${document.id}`)}
                data-testid="document-mydata"
              >
                {t('menu.mydata')}
              </Button>
            )}
            {finalized && can('finance:write') && (
              <Button
                variant="outlined"
                startIcon={<UndoOutlinedIcon />}
                onClick={() => credit.mutate()}
                loading={credit.isPending}
                data-testid="document-credit"
              >
                {t('finance.form.creditNote')}
              </Button>
            )}
          </Stack>
        }
      />
      {finalized && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="document-finalized-note">
          {t('finance.form.finalizedNote', { user: document?.defuser ?? '' })}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('finance.documents.series')}
              value={draft.seriesId ?? ''}
              disabled={readOnly || document !== null}
              error={Boolean(errors.seriesId)}
              helperText={
                errors.seriesId ??
                (seriesOfDraft ? t(`finance.series.kind_${seriesOfDraft.kind}`) : undefined)
              }
              onChange={(event) => set({ seriesId: Number(event.target.value) })}
              slotProps={{ htmlInput: { 'data-testid': 'document-series' } }}
            >
              {series.map((s) => (
                <MenuItem key={s.id} value={s.id} data-testid={`series-option-${s.code}`}>
                  {s.code} · {s.descr}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <DayField
              label={t('finance.documents.date')}
              value={draft.date}
              disabled={readOnly}
              error={errors.date}
              onChange={(date) => set({ date })}
              testId="document-date"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('finance.documents.paymentMethod')}
              value={draft.paymentMethod}
              disabled={readOnly}
              onChange={(event) => set({ paymentMethod: Number(event.target.value) })}
              slotProps={{ htmlInput: { 'data-testid': 'document-payment' } }}
            >
              {paymentMethods.map((m) => (
                <MenuItem key={m} value={m}>
                  {t(`finance.documents.paymentMethod_${m}`)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('finance.documents.status')}
              value={draft.status}
              disabled={readOnly}
              onChange={(event) => set({ status: Number(event.target.value) })}
            >
              {recordStatuses.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`finance.documents.status_${s}`)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <TraderPicker
              value={draft.trader}
              onChange={(trader) => set({ trader })}
              label={t('finance.documents.trader')}
              required={seriesOfDraft?.kind !== 'retailReceipt'}
              error={errors.traderId}
              disabled={readOnly}
              testId="document-trader"
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <TextField
              fullWidth
              size="small"
              label={t('finance.documents.notes')}
              value={draft.notes}
              disabled={readOnly}
              onChange={(event) => set({ notes: event.target.value })}
              slotProps={{ htmlInput: { maxLength: 2000 } }}
            />
          </Grid>
        </Grid>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, mb: 2, overflowX: 'auto' }}>
        <Typography variant="subtitle1" sx={{ mb: 1 }}>
          {t('finance.form.lines')}
        </Typography>
        <DocumentLines
          lines={draft.lines}
          onChange={(lines) => set({ lines })}
          services={services}
          items={items}
          totals={totals}
          errors={errors}
          readOnly={readOnly}
        />
      </Paper>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Paper variant="outlined" sx={{ p: 2, height: '100%' }}>
            <Typography variant="subtitle1" sx={{ mb: 1 }}>
              {t('finance.form.taxes')}
            </Typography>
            <DocumentTaxes
              taxes={draft.taxes}
              onChange={(taxes) => set({ taxes })}
              totals={totals}
              errors={errors}
              readOnly={readOnly}
            />
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Paper variant="outlined" sx={{ p: 2 }} data-testid="document-totals">
            {(
              [
                ['net', totals.net],
                ['discountTotal', totals.discount],
                ['vat', totals.vat],
                ['gross', totals.gross],
                ['taxesCharged', totals.taxesCharged],
                ['withheld', totals.withheld],
              ] as const
            ).map(([key, value]) => (
              <Stack key={key} direction="row" sx={{ justifyContent: 'space-between', py: 0.25 }}>
                <Typography variant="body2" color="text.secondary">
                  {t(`finance.form.total_${key}`)}
                </Typography>
                <Typography variant="body2" data-testid={`total-${key}`}>
                  {money(value)}
                </Typography>
              </Stack>
            ))}
            <Stack
              direction="row"
              sx={{ justifyContent: 'space-between', pt: 1, mt: 1, borderTop: 1, borderColor: 'divider' }}
            >
              <Typography variant="subtitle1">{t('finance.documents.payable')}</Typography>
              <Typography variant="subtitle1" data-testid="total-payable">
                {money(totals.payable)} €
              </Typography>
            </Stack>
          </Paper>
        </Grid>
      </Grid>
      {!readOnly && (
        <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
          {dirtyAfterSave && (
            <Button
              color="error"
              startIcon={<DeleteOutlineIcon />}
              onClick={() => remove.mutate()}
              loading={remove.isPending}
              data-testid="document-delete"
            >
              {t('finance.form.delete')}
            </Button>
          )}
          <Button
            variant="outlined"
            startIcon={<SaveOutlinedIcon />}
            onClick={() => save.mutate()}
            loading={save.isPending}
            data-testid="document-save"
          >
            {t('finance.form.save')}
          </Button>
          {document && (
            <Button
              variant="contained"
              startIcon={<LockOutlinedIcon />}
              onClick={onFinalize}
              loading={finalize.isPending}
              data-testid="document-finalize"
            >
              {t('finance.form.finalize')}
            </Button>
          )}
        </Stack>
      )}
    </Box>
  );
}
