import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type BillingDryRun, type BillingRun, formatMoney, type Job, writtenCode } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { jobErrorText } from '../../lib/jobs.ts';
import { useLang } from '../../lib/language.tsx';
import { RunSendingButton } from './RunSending.tsx';
import { runPeriodLabel } from './runPeriod.ts';

/** A job's bar while it works ("Dry run: 500 of 4,000 readings"), its error if it failed. */
export function JobProgress({ job, label, testId }: { job?: Job; label: string; testId: string }) {
  const { t } = useTranslation();
  const language = useLang();
  if (job && (job.state === 'failed' || job.state === 'cancelled')) {
    return (
      <Alert severity="error" sx={{ mt: 2 }} data-testid={`${testId}-error`}>
        {job.error ? jobErrorText(t, job) : t('billingUi.runs.jobFailed')}
      </Alert>
    );
  }
  // Until the job's first answer it is waiting to start.
  const total = job?.progressTotal ?? null;
  const done = job?.progressDone ?? 0;
  const number = (n: number) => n.toLocaleString(language === 'el' ? 'el-GR' : 'en-GB');
  return (
    <Box sx={{ mt: 2, maxWidth: 560 }} data-testid={testId}>
      <LinearProgress
        variant={total ? 'determinate' : 'indeterminate'}
        value={total ? (100 * done) / total : undefined}
        sx={{ height: 8, borderRadius: 4 }}
        aria-label={t(label, { done: number(done), total: number(total ?? 0) })}
      />
      <Typography variant="caption" color="text.secondary">
        {total === null
          ? t('billingUi.runs.jobQueued')
          : t(label, { done: number(done), total: number(total) })}
      </Typography>
    </Box>
  );
}

type Totals = Pick<BillingDryRun, 'charges' | 'net' | 'vat' | 'total'>;

/** Totals per charge, then net, VAT and the total payable. */
function TotalsTable({ totals, testId }: { totals: Totals; testId: string }) {
  const { t } = useTranslation();
  const language = useLang();
  const money = (value: string) => formatMoney(value, language);
  return (
    <Table size="small" data-testid={testId} sx={{ maxWidth: 560 }}>
      <TableHead>
        <TableRow>
          <TableCell>{t('billingUi.runs.charge')}</TableCell>
          <TableCell align="right">{t('billingUi.runs.amount')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {totals.charges.map((c) => (
          <TableRow key={c.charge}>
            <TableCell>{t(`billing.charge.${c.charge}`)}</TableCell>
            <TableCell align="right">{money(c.amount)}</TableCell>
          </TableRow>
        ))}
        <TableRow>
          <TableCell sx={{ fontWeight: 600 }}>{t('billingUi.runs.net')}</TableCell>
          <TableCell align="right">{money(totals.net)}</TableCell>
        </TableRow>
        <TableRow>
          <TableCell sx={{ fontWeight: 600 }}>{t('billingUi.runs.vat')}</TableCell>
          <TableCell align="right">{money(totals.vat)}</TableCell>
        </TableRow>
        <TableRow>
          <TableCell sx={{ fontWeight: 700 }}>{t('billingUi.runs.total')}</TableCell>
          <TableCell align="right" sx={{ fontWeight: 700 }} data-testid={`${testId}-total`}>
            {money(totals.total)}
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

/** What the dry run found: counts (warnings in colour), totals per charge, consumers left out. */
export function DryRunResult({ dry }: { dry: BillingDryRun }) {
  const { t } = useTranslation();
  const counts: [key: string, value: number, warn: boolean][] = [
    ['routes', dry.routes, false],
    ['consumers', dry.consumers, false],
    ['bills', dry.bills, false],
    ['withoutReading', dry.withoutReading, dry.withoutReading > 0],
    ['estimated', dry.estimated, dry.estimated > 0],
    ['corrections', dry.corrections, false],
    ['flagged', dry.flagged, dry.flagged > 0],
    ['openPeriods', dry.openPeriods, dry.openPeriods > 0],
    ['finalized', dry.finalized, false],
  ];
  return (
    <Box sx={{ mt: 3 }} data-testid="billing-dry-result">
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        {t('billingUi.runs.dryTitle')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        {counts.map(([key, value, warn]) => (
          <Chip
            key={key}
            label={`${t(`billingUi.runs.count_${key}`)}: ${value}`}
            variant={warn ? 'filled' : 'outlined'}
            // Black on the light orange reads in both themes (white on orange does not).
            sx={warn ? { bgcolor: 'warning.light', color: 'common.black', fontWeight: 600 } : undefined}
            data-testid={`billing-dry-${key}`}
          />
        ))}
      </Box>
      <TotalsTable totals={dry} testId="billing-dry-totals" />
      {dry.problems.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2">{t('billingUi.runs.problems')}</Typography>
          {dry.problems.slice(0, 20).map((p) => (
            <Typography key={p.consumerId} variant="body2" color="warning.main">
              {writtenCode(p.code)}: {t(p.key)}
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** The last runs with a progress bar while their job works, and their totals once done. */
export function RunsTable({
  runs,
  onFinalize,
  finalizing,
}: {
  runs: BillingRun[];
  onFinalize: (run: BillingRun) => void;
  finalizing: boolean;
}) {
  const { t } = useTranslation();
  const language = useLang();
  if (runs.length === 0) {
    return <Typography color="text.secondary">{t('billingUi.runs.none')}</Typography>;
  }
  return (
    <Table size="small" data-testid="billing-runs">
      <TableHead>
        <TableRow>
          <TableCell>{t('billingUi.runs.started')}</TableCell>
          <TableCell>{t('billingUi.runs.periodOf')}</TableCell>
          <TableCell>{t('billingUi.runs.routes')}</TableCell>
          <TableCell sx={{ minWidth: 220 }}>{t('billingUi.runs.progress')}</TableCell>
          <TableCell align="right">{t('billingUi.runs.count_bills')}</TableCell>
          <TableCell align="right">{t('billingUi.runs.total')}</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {runs.map((run) => {
          const total = run.progressTotal ?? 0;
          const numbering = run.finalizing?.state === 'queued' || run.finalizing?.state === 'running';
          const percent = total === 0 ? (run.state === 'done' ? 100 : 0) : (100 * run.progressDone) / total;
          return (
            <TableRow key={run.id} data-testid="billing-run-row" data-state={run.state}>
              <TableCell>
                {formatDateTime(run.createdate)}
                <Typography variant="caption" component="div" color="text.secondary">
                  {run.createuser} · {t('billingUi.runs.issued', { date: formatDate(run.issueDate) })}
                </Typography>
              </TableCell>
              <TableCell data-testid="billing-run-period-name">{runPeriodLabel(run, language)}</TableCell>
              <TableCell>{run.routeCodes.join(', ')}</TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <LinearProgress
                    variant="determinate"
                    value={percent}
                    color={run.state === 'failed' ? 'error' : run.state === 'done' ? 'success' : 'primary'}
                    sx={{ flex: 1, height: 8, borderRadius: 4 }}
                    aria-label={t('billingUi.runs.progress')}
                    data-testid="billing-run-progress"
                  />
                  <Typography variant="caption" sx={{ minWidth: 90 }}>
                    {t(`billingUi.runs.state_${run.state}`)} {run.progressDone}/{run.progressTotal ?? '–'}
                  </Typography>
                </Box>
                {numbering && (
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
                    <LinearProgress
                      variant={run.finalizing?.total ? 'determinate' : 'indeterminate'}
                      value={
                        run.finalizing?.total ? (100 * run.finalizing.done) / run.finalizing.total : undefined
                      }
                      color="secondary"
                      sx={{ flex: 1, height: 8, borderRadius: 4 }}
                      aria-label={t('billingUi.runs.finalizing')}
                      data-testid="billing-run-finalizing"
                    />
                    <Typography variant="caption" sx={{ minWidth: 90 }}>
                      {t('billingUi.runs.finalizing')} {run.finalizing?.done}/{run.finalizing?.total ?? '–'}
                    </Typography>
                  </Box>
                )}
                {run.error && (
                  <Typography variant="caption" color="error">
                    {jobErrorText(t, { error: run.error })}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">
                {run.bills}
                {run.state === 'done' && run.bills === 0 && run.progressDone > 0 && (
                  <Typography variant="caption" component="div" color="text.secondary">
                    {t('billingUi.runs.superseded')}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">{formatMoney(run.total, language)}</TableCell>
              <TableCell align="right">
                {run.state === 'done' && run.open === 0 && run.bills > 0 && <RunSendingButton run={run} />}
                {run.state === 'done' && run.open > 0 && !numbering && (
                  <Button
                    size="small"
                    variant="outlined"
                    disabled={finalizing}
                    onClick={() => onFinalize(run)}
                    data-testid="billing-run-finalize"
                  >
                    {t('billingUi.runs.finalize')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
