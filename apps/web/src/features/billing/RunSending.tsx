import ForwardToInboxOutlinedIcon from '@mui/icons-material/ForwardToInboxOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type {
  BillDispatch,
  BillDispatchStarted,
  BillingRun,
  RouteSendCounts,
  RunSending,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { api } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { useInstallationEnv } from '../../lib/env.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';
import { openPdf } from './api.ts';
import { runPeriodLabel } from './runPeriod.ts';

const sendingKey = (runId: number) => ['billing', 'sending', runId] as const;
export const active = (d: BillDispatch) => d.state === 'queued' || d.state === 'running';

/** A finalized run's "Sending" button and its dialog. */
export function RunSendingButton({ run }: { run: BillingRun }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<OutboxOutlinedIcon />}
        onClick={() => setOpen(true)}
        data-testid="billing-run-sending"
      >
        {t('billingUi.sending.open')}
      </Button>
      {open && <RunSendingDialog run={run} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * A run's sending per route: its finalized bills counted per send status, e-mailing those with an
 * address, the merged PDF of those marked for print, closing the route's sending, and the sendings
 * with their progress and printed files.
 */
function RunSendingDialog({ run, onClose }: { run: BillingRun; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const mailEnabled = useInstallationEnv()?.mail.enabled ?? false;
  const sending = useQuery({
    queryKey: [...sendingKey(run.id)],
    queryFn: ({ signal }) => api.get<RunSending>(`/api/billing/runs/${run.id}/sending`, { signal }),
    refetchInterval: (query) => (query.state.data?.dispatches.some(active) ? 700 : false),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sendingKey(run.id) });
  const email = useMutation({
    mutationFn: ({ routeId, uncertain = false }: { routeId?: number; uncertain?: boolean }) =>
      api.post<BillDispatchStarted>('/api/billing/dispatches/email', {
        runId: run.id,
        routeId,
        uncertain,
      }),
    meta: { errorSnackbar: false },
    onSuccess: (started) => {
      notify(t('billingUi.sending.emailQueued', { email: started.email, print: started.print }), 'success');
      return refresh();
    },
  });
  const print = useMutation({
    mutationFn: (routeId: number) =>
      api.post<BillDispatchStarted>('/api/billing/dispatches/print', {
        runId: run.id,
        routeId,
      }),
    meta: { errorSnackbar: false },
    onSuccess: () => refresh(),
  });
  const complete = useMutation({
    mutationFn: (routeId: number) =>
      api.post<{ completed: number }>(`/api/billing/runs/${run.id}/sending/complete`, {
        routeId,
      }),
    meta: { errorSnackbar: false },
    onSuccess: (result) => {
      notify(t('billingUi.sending.completedDone', { count: result.completed }), 'success');
      return refresh();
    },
  });
  const [resend, setResend] = useState<RouteSendCounts | null>(null);
  const busy = email.isPending || print.isPending || complete.isPending;
  const error = email.error ?? print.error ?? complete.error;
  const routes = sending.data?.routes ?? [];
  const canEmail = (r: RouteSendCounts) => mailEnabled && r.holdWithEmail > 0;
  const canPrint = (r: RouteSendCounts) => r.toPrint > 0 || r.hold > r.holdWithEmail;
  const openFile = useOpenDispatchFile();
  return (
    <Dialog open onClose={onClose} maxWidth="xl" fullWidth aria-labelledby="billing-sending-title">
      <DialogTitle id="billing-sending-title">
        {t('billingUi.sending.title', { period: runPeriodLabel(run, language) })}
      </DialogTitle>
      <DialogContent data-testid="billing-sending">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t(mailEnabled ? 'billingUi.sending.hint' : 'billingUi.sending.noMail')}
        </Typography>
        {error && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="billing-sending-error">
            {errorMessage(t, error)}
          </Alert>
        )}
        <Table size="small" data-testid="billing-sending-routes">
          <TableHead>
            <TableRow>
              <TableCell>{t('billingUi.sending.route')}</TableCell>
              {(['finalized', 'hold', 'toEmail', 'toPrint', 'uncertain', 'sent', 'completed'] as const).map(
                (key) => (
                  <TableCell key={key} align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {t(`billingUi.sending.count_${key}`)}
                  </TableCell>
                ),
              )}
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {routes.map((r) => (
              <TableRow key={r.routeId} data-testid="billing-sending-route" data-route={r.code}>
                <TableCell sx={{ minWidth: 160 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {r.code}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {r.description}
                  </Typography>
                </TableCell>
                <TableCell align="right">{r.finalized}</TableCell>
                <TableCell align="right">
                  <span data-testid="billing-sending-hold">{r.hold}</span>
                  {r.hold > 0 && (
                    <Typography
                      variant="caption"
                      component="div"
                      color="text.secondary"
                      data-testid="billing-sending-withEmail"
                    >
                      {t('billingUi.sending.withEmail', { count: r.holdWithEmail })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right">{r.toEmail}</TableCell>
                <TableCell align="right" data-testid="billing-sending-toPrint">
                  {r.toPrint}
                </TableCell>
                <TableCell
                  align="right"
                  sx={r.uncertain > 0 ? { color: 'warning.dark', fontWeight: 600 } : undefined}
                >
                  {r.uncertain > 0 && mailEnabled ? (
                    <Tooltip title={t('billingUi.sending.resendHint')}>
                      <Button
                        size="small"
                        color="warning"
                        disabled={busy}
                        onClick={() => setResend(r)}
                        data-testid="billing-sending-resend"
                      >
                        {r.uncertain}
                      </Button>
                    </Tooltip>
                  ) : (
                    r.uncertain
                  )}
                </TableCell>
                <TableCell align="right" data-testid="billing-sending-sent">
                  {r.sent}
                </TableCell>
                <TableCell align="right" data-testid="billing-sending-completed">
                  {r.completed}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Button
                    size="small"
                    disabled={busy || !canEmail(r)}
                    onClick={() => email.mutate({ routeId: r.routeId })}
                    data-testid="billing-sending-email"
                  >
                    {t('billingUi.sending.email')}
                  </Button>
                  <Button
                    size="small"
                    disabled={busy || !canPrint(r)}
                    onClick={() => print.mutate(r.routeId)}
                    data-testid="billing-sending-print"
                  >
                    {t('billingUi.sending.print')}
                  </Button>
                  <Tooltip title={t('billingUi.sending.completeHint')}>
                    <span>
                      <Button
                        size="small"
                        disabled={busy || r.sent === 0}
                        onClick={() => complete.mutate(r.routeId)}
                        data-testid="billing-sending-complete"
                      >
                        {t('billingUi.sending.complete')}
                      </Button>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
          {t('billingUi.sending.dispatches')}
        </Typography>
        {(sending.data?.dispatches ?? []).length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('billingUi.sending.noDispatches')}
          </Typography>
        ) : (
          <Table size="small" data-testid="billing-dispatches">
            <TableBody>
              {sending.data?.dispatches.map((d) => (
                <DispatchRow key={d.id} dispatch={d} onOpen={openFile} />
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button
          startIcon={<ForwardToInboxOutlinedIcon />}
          disabled={busy || !routes.some(canEmail)}
          onClick={() => email.mutate({})}
          data-testid="billing-sending-email-all"
        >
          {t('billingUi.sending.emailAll')}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="billing-sending-close">
          {t('billingUi.sending.close')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={resend !== null}
        title={t('billingUi.sending.resendTitle')}
        message={t('billingUi.sending.resendMessage', {
          count: resend?.uncertain ?? 0,
          route: resend?.code ?? '',
        })}
        confirmLabel={t('billingUi.sending.resend')}
        busy={email.isPending}
        onConfirm={() => {
          if (resend)
            email.mutate({ routeId: resend.routeId, uncertain: true }, { onSettled: () => setResend(null) });
        }}
        onClose={() => setResend(null)}
      />
    </Dialog>
  );
}

/** Opens a print sending's merged PDF (a notice if it cannot). */
export function useOpenDispatchFile() {
  const { t } = useTranslation();
  const notify = useNotify();
  return (d: BillDispatch) =>
    void openPdf(`/api/billing/dispatches/${d.id}/file`).catch(() =>
      notify(t('billingUi.sending.fileError'), 'error'),
    );
}

/** A sending with its progress, result and printed file; `action` is one more button (closing it). */
export function DispatchRow({
  dispatch: d,
  onOpen,
  action,
}: {
  dispatch: BillDispatch;
  onOpen: (d: BillDispatch) => void;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const total = d.progressTotal ?? 0;
  const percent = total === 0 ? (d.state === 'done' ? 100 : 0) : (100 * d.progressDone) / total;
  return (
    <TableRow data-testid="billing-dispatch" data-kind={d.kind} data-state={d.state}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(d.createdate)}
        <Typography variant="caption" component="div" color="text.secondary">
          {d.createuser}
        </Typography>
      </TableCell>
      <TableCell>
        {t(`billingUi.sending.kind_${d.kind}`)}
        {d.routeCode ? ` · ${d.routeCode}` : ''}
      </TableCell>
      <TableCell sx={{ minWidth: 220 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <LinearProgress
            variant="determinate"
            value={percent}
            color={d.state === 'failed' ? 'error' : d.state === 'done' ? 'success' : 'primary'}
            sx={{ flex: 1, height: 8, borderRadius: 4 }}
            aria-label={t('billingUi.runs.progress')}
          />
          <Typography variant="caption" sx={{ minWidth: 90 }}>
            {t(`billingUi.runs.state_${d.state}`)} {d.progressDone}/{d.progressTotal ?? '–'}
          </Typography>
        </Box>
        {d.error && (
          <Typography variant="caption" color="error">
            {t(d.error, { defaultValue: d.error })}
          </Typography>
        )}
      </TableCell>
      <TableCell data-testid="billing-dispatch-result">
        {t(`billingUi.sending.result_${d.kind}`, { count: d.bills })}
        {d.refused > 0 && ` · ${t('billingUi.sending.refused', { count: d.refused })}`}
      </TableCell>
      <TableCell align="right">
        {d.fileSize !== null && (
          <Button
            size="small"
            startIcon={<PictureAsPdfOutlinedIcon />}
            onClick={() => onOpen(d)}
            data-testid="billing-dispatch-file"
          >
            {t('billingUi.sending.file', { size: Math.max(1, Math.round(d.fileSize / 1024)) })}
          </Button>
        )}
        {action}
      </TableCell>
    </TableRow>
  );
}
