import './i18n/index.ts';
import BlockOutlinedIcon from '@mui/icons-material/BlockOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type AadeError,
  formatMoney,
  type MydataSource,
  type Transmission,
  type TransmissionState,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { openFile } from '../../lib/files.ts';
import { jobErrorText } from '../../lib/jobs.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { mydataApi, settingsKey, transmissionKey } from './api.ts';
import { errorText } from './errorText.ts';
import { useTransmitJob } from './useTransmitJob.ts';

const STATE_COLOR: Record<TransmissionState, 'default' | 'success' | 'error' | 'warning'> = {
  notSent: 'default',
  sent: 'success',
  failed: 'error',
  uncertain: 'warning',
  cancelled: 'default',
};

/** The printed document or bill with its MARK and QR code, opened in a new tab (the API needs the session's token). */
async function openPdf(path: string, language: string): Promise<void> {
  await openFile(`${path}${path.includes('?') ? '&' : '?'}lang=${language}`);
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' }, gap: 1, py: 0.75 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-all' }} data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * One error in the user's language: a schema rule with the field it names (libxml2's text below as
 * the detail), AADE's code with its message, or what happened on the way.
 */
function ErrorLine({ error }: { error: AadeError }) {
  const { t } = useTranslation();
  if (error.code === 'xsd' && error.rule)
    return (
      <Box sx={{ mb: 0.5 }} data-testid="mydata-xsd-error">
        <Typography variant="body2">{errorText(t, error)}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
          {t('mydata.document.rawDetail')}: {error.message}
        </Typography>
      </Box>
    );
  return <Typography variant="body2">{errorText(t, error)}</Typography>;
}

function TransmissionView({
  transmission: tr,
  source,
}: {
  transmission: Transmission;
  source: MydataSource;
}) {
  const { t } = useTranslation();
  const language = useLang();
  const localize = useLocalize();
  const can = useCan();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  // A demo company sends to the installation's local stand-in for AADE: its MARK and QR say so.
  const settings = useQuery({
    queryKey: settingsKey(),
    queryFn: ({ signal }) => mydataApi.settings(signal),
  });
  const key = transmissionKey(source, tr.documentId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const tracker = useTransmitJob((job) => {
    void refresh();
    if (job.state === 'failed') notify(jobErrorText(t, job), 'error');
  });
  const send = useMutation({
    mutationFn: () =>
      mydataApi.transmit(source === 'bill' ? { billId: tr.documentId } : { documentId: tr.documentId }),
    onSuccess: (answer) => tracker.follow(answer.jobId),
  });
  const cancel = useMutation({
    mutationFn: () =>
      source === 'bill' ? mydataApi.cancelBill(tr.documentId) : mydataApi.cancel(tr.documentId),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      notify(t(source === 'bill' ? 'mydata.document.cancelledBill' : 'mydata.document.cancelled'), 'success');
    },
  });
  const pdf = useMutation({
    mutationFn: () =>
      openPdf(
        source === 'bill'
          ? `/api/billing/bills/${tr.documentId}/pdf`
          : `/api/finance/documents/${tr.documentId}/pdf`,
        language,
      ),
    onError: (error) => notify(errorMessage(t, error), 'error'),
    meta: { errorSnackbar: false },
  });
  const doc = tr.document;
  const number = doc.number === null ? doc.seriesCode : `${doc.seriesCode}-${doc.number}/${doc.year}`;
  const onCancel = async () => {
    const ok = await confirm({
      title: t('mydata.document.cancelTitle'),
      message: t('mydata.document.cancelMessage', { number }),
      confirmLabel: t('mydata.document.cancel'),
      danger: true,
    });
    if (ok) cancel.mutate();
  };
  return (
    <>
      <PageHeader
        title={`${doc.seriesDescr} ${number}`}
        subtitle={`${formatDate(doc.date)} · ${doc.traderName ?? t('mydata.document.retail')} · ${formatMoney(doc.payable, language)} €`}
        avatar={<CloudUploadOutlinedIcon />}
        testId="mydata-document-header"
        actions={
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<ReceiptLongOutlinedIcon />}
              component={RouterLink}
              to={localize(source === 'bill' ? '/invoices' : `/finance/documents/${tr.documentId}/edit`)}
            >
              {t(source === 'bill' ? 'mydata.document.openBills' : 'mydata.document.open')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<PictureAsPdfOutlinedIcon />}
              onClick={() => pdf.mutate()}
              loading={pdf.isPending}
              data-testid="mydata-document-pdf"
            >
              {t('mydata.document.pdf')}
            </Button>
          </Stack>
        }
      />
      <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 }, maxWidth: 900 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
          <Typography variant="h2" sx={{ fontSize: '1.05rem', flexGrow: 1 }}>
            {t('mydata.document.title')}
          </Typography>
          <Chip
            label={t(`mydata.state.${tr.state}`)}
            color={STATE_COLOR[tr.state]}
            variant={tr.state === 'notSent' || tr.state === 'cancelled' ? 'outlined' : 'filled'}
            data-testid="mydata-document-state"
            data-state={tr.state}
          />
        </Box>
        {settings.data?.localAade && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="mydata-document-local-aade">
            {t('mydata.document.localAade')}
          </Alert>
        )}
        {tracker.active && <LinearProgress sx={{ mb: 2 }} data-testid="mydata-document-progress" />}
        <Field label={t('mydata.list.invoiceType')}>
          {doc.invoiceType
            ? `${doc.invoiceType} · ${t(`mydata.invoiceType.${doc.invoiceType.replace('.', '_')}`)}`
            : '—'}
        </Field>
        <Field label={t('mydata.pdf.mark')} testId="mydata-document-mark">
          {tr.mark ?? '—'}
        </Field>
        <Field label={t('mydata.pdf.uid')} testId="mydata-document-uid">
          {tr.uid ?? '—'}
        </Field>
        <Field label={t('mydata.document.qrUrl')}>
          {tr.qrUrl ? (
            <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
              {tr.qrImage && (
                <Box
                  component="img"
                  src={tr.qrImage}
                  alt={t('mydata.document.qrImage')}
                  data-testid="mydata-document-qr-image"
                  sx={{ width: 132, height: 132, imageRendering: 'pixelated', bgcolor: '#fff', p: 0.5 }}
                />
              )}
              <Link
                href={tr.qrUrl}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="mydata-document-qr"
              >
                {tr.qrUrl}
              </Link>
            </Stack>
          ) : (
            '—'
          )}
        </Field>
        {tr.cancellationMark && (
          <Field label={t('mydata.pdf.cancellationMark')} testId="mydata-document-cancellation">
            {tr.cancellationMark}
          </Field>
        )}
        <Field label={t('mydata.document.attempts')}>{tr.attempts}</Field>
        <Field label={t('mydata.document.sentAt')}>{tr.sentAt ? formatDateTime(tr.sentAt) : '—'}</Field>
        {tr.errors.length > 0 && tr.state !== 'sent' && (
          <Alert
            severity={tr.state === 'uncertain' ? 'warning' : 'error'}
            sx={{ mt: 2 }}
            data-testid="mydata-document-errors"
          >
            <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
              {t(tr.state === 'uncertain' ? 'mydata.document.uncertain' : 'mydata.document.failed')}
            </Typography>
            {tr.errors.map((error) => (
              <ErrorLine key={`${error.code}-${error.message}`} error={error} />
            ))}
          </Alert>
        )}
        {(send.error || cancel.error) && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(t, send.error ?? cancel.error)}
          </Alert>
        )}
        {tr.cancelRefusal && tr.cancelRefusal !== 'mydata.error.notCancellable' && (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="mydata-document-cancel-refusal">
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('mydata.document.cancelRefusal')}
            </Typography>
            {t(tr.cancelRefusal)}
          </Alert>
        )}
        {can('mydata:write') && (tr.canSend || tr.canCancel) && (
          <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
            {tr.canSend && (
              <Button
                variant="contained"
                startIcon={<SendOutlinedIcon />}
                loading={send.isPending || tracker.active}
                onClick={() => send.mutate()}
                data-testid="mydata-document-send"
              >
                {tr.state === 'notSent' ? t('mydata.document.send') : t('mydata.document.resend')}
              </Button>
            )}
            {tr.canCancel && (
              <Button
                color="error"
                variant="outlined"
                startIcon={<BlockOutlinedIcon />}
                loading={cancel.isPending}
                onClick={() => void onCancel()}
                data-testid="mydata-document-cancel"
              >
                {t('mydata.document.cancel')}
              </Button>
            )}
          </Stack>
        )}
      </Paper>
      {confirmDialog}
    </>
  );
}

/**
 * /mydata/documents/:documentId and /mydata/bills/:billId: one document's or water bill's
 * transmission, sent (or a document cancelled) from here.
 */
export default function TransmissionPage() {
  const { t } = useTranslation();
  const params = useParams();
  const source: MydataSource = params.billId ? 'bill' : 'document';
  const id = Number(params.billId ?? params.documentId);
  useAppBar({ title: t('mydata.list.title') });
  const query = useQuery({
    queryKey: transmissionKey(source, id),
    queryFn: ({ signal }) =>
      source === 'bill' ? mydataApi.billTransmission(id, signal) : mydataApi.transmission(id, signal),
  });
  if (query.isError) return <RetryAlert error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Skeleton variant="rounded" height={360} />;
  return <TransmissionView transmission={query.data} source={source} />;
}
