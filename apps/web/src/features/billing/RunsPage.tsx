import './i18n/index.ts';
import PlaylistPlayOutlinedIcon from '@mui/icons-material/PlaylistPlayOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import {
  type BillingDryRun,
  type BillingRun,
  type BillingRunRequest,
  utilityYear,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wireDate } from '../../components/form/dates.ts';
import { Section } from '../../components/form/fields.tsx';
import { OutlinedField } from '../../components/form/OutlinedField.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { jobErrorText, useJob } from '../../lib/jobs.ts';
import { useCoded } from './api.ts';
import { DryRunResult, JobProgress, RunsTable } from './RunsTables.tsx';

type Scope = BillingRunRequest['scope'];
interface RouteRow {
  id: number;
  code: string;
  description: string;
  sector: string;
}

const PERIODS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const runsKey = ['billing', 'runs'] as const;
const today = () => formatDate(new Date());

/**
 * /invoices/runs: a period and a scope, the dry run (what would be billed, what is missing, what the
 * readouts review flagged), then the run as a background job whose progress the list follows.
 */
export default function RunsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const title = t('billingUi.runs.title');
  useAppBar({ title });
  const [year, setYear] = useState(String(utilityYear()));
  const [period, setPeriod] = useState(1);
  const [scope, setScope] = useState<Scope>('all');
  const [picked, setPicked] = useState<{ id: number; label: string }[]>([]);
  const [issueDate, setIssueDate] = useState(today());
  const sectors = useCoded('sectors');
  const routes = useQuery({
    queryKey: ['billing', 'routes'],
    queryFn: ({ signal }) => api.get<RouteRow[]>('/api/readouts/routes', { signal }),
    staleTime: 60_000,
  });
  const options =
    scope === 'sectors'
      ? sectors.map((s) => ({ id: s.id, label: `${s.code} · ${s.description}` }))
      : (routes.data ?? []).map((r) => ({ id: r.id, label: `${r.code} · ${r.description} (${r.sector})` }));
  const body = (): BillingRunRequest => ({
    year: Number(year),
    period,
    scope,
    ids: scope === 'all' ? [] : picked.map((p) => p.id),
    issueDate: wireDate(issueDate) ?? issueDate,
  });
  // The dry run and finalizing are background jobs: the page follows their progress.
  const [dryJobId, setDryJobId] = useState<number | null>(null);
  const dryJob = useJob(dryJobId);
  const dry = useMutation({
    mutationFn: () => api.post<{ jobId: number }>('/api/billing/runs/dry', body()),
    meta: { errorSnackbar: false },
    onSuccess: (started) => setDryJobId(started.jobId),
  });
  const dryResult = dryJob.data?.state === 'succeeded' ? (dryJob.data.result as BillingDryRun) : null;
  const start = useMutation({
    mutationFn: () => api.post<BillingRun>('/api/billing/runs', body()),
    meta: { errorSnackbar: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runsKey }),
  });
  const runs = useQuery({
    queryKey: [...runsKey],
    queryFn: ({ signal }) => api.get<BillingRun[]>('/api/billing/runs', { signal }),
    refetchInterval: (query) =>
      query.state.data?.some(
        (r) =>
          r.state === 'queued' ||
          r.state === 'running' ||
          r.finalizing?.state === 'queued' ||
          r.finalizing?.state === 'running',
      )
        ? 700
        : false,
  });
  const notify = useNotify();
  const [finalizeJobId, setFinalizeJobId] = useState<number | null>(null);
  useJob(finalizeJobId, (job) => {
    // A finalizing refused on its way (the series moved on meanwhile) says why, translated.
    if (job.state === 'failed') {
      notify(job.error ? jobErrorText(t, job) : t('billingUi.runs.jobFailed'), 'error');
      void queryClient.invalidateQueries({ queryKey: runsKey });
      return;
    }
    if (job.state !== 'succeeded') return;
    notify(
      t('billingUi.runs.finalized', { count: (job.result as { finalized: number }).finalized }),
      'success',
    );
    void queryClient.invalidateQueries({ queryKey: runsKey });
  });
  const finalize = useMutation({
    mutationFn: (run: BillingRun) => api.post<{ jobId: number }>(`/api/billing/runs/${run.id}/finalize`, {}),
    meta: { errorSnackbar: false },
    onSuccess: (started) => {
      setFinalizeJobId(started.jobId);
      return queryClient.invalidateQueries({ queryKey: runsKey });
    },
  });
  const error = dry.error ?? start.error ?? finalize.error;
  const dryRunning = dryJob.data?.state === 'queued' || dryJob.data?.state === 'running';
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('billingUi.runs.subtitle')}
        avatar={<PlaylistPlayOutlinedIcon />}
        testId="billing-runs-header"
      />
      <Section title={t('billingUi.runs.new')} hint={t('billingUi.runs.newHint')}>
        <Grid container spacing={2} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 4, md: 1.5 }}>
            <OutlinedField
              name="year"
              label={t('billingUi.runs.year')}
              value={year}
              onChange={(e) => setYear(e.target.value)}
              testId="billing-run-year"
            />
          </Grid>
          <Grid size={{ xs: 4, md: 1.5 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('billingUi.runs.period')}
              value={period}
              onChange={(e) => setPeriod(Number(e.target.value))}
              slotProps={{ htmlInput: { 'data-testid': 'billing-run-period' } }}
            >
              {PERIODS.map((p) => (
                <MenuItem key={p} value={p}>
                  {p}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 4, md: 2 }}>
            <OutlinedField
              name="issueDate"
              label={t('billingUi.runs.issueDate')}
              value={issueDate}
              onChange={(e) => setIssueDate(e.target.value)}
              testId="billing-run-issue-date"
            />
          </Grid>
          <Grid size={{ xs: 12, md: 7 }}>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={scope}
              onChange={(_, value: Scope | null) => {
                if (value) {
                  setScope(value);
                  setPicked([]);
                }
              }}
              aria-label={t('billingUi.runs.scope')}
            >
              {(['all', 'sectors', 'routes'] as const).map((s) => (
                <ToggleButton
                  key={s}
                  value={s}
                  sx={{ whiteSpace: 'nowrap', px: 2 }}
                  data-testid={`billing-run-scope-${s}`}
                >
                  {t(`billingUi.runs.scope_${s}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Grid>
          {scope !== 'all' && (
            <Grid size={12}>
              <Autocomplete
                multiple
                size="small"
                options={options}
                value={picked}
                onChange={(_, value) => setPicked(value)}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label={t(`billingUi.runs.pick_${scope}`)}
                    slotProps={{
                      ...params.slotProps,
                      htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'billing-run-pick' },
                    }}
                  />
                )}
              />
            </Grid>
          )}
        </Grid>
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button
            variant="outlined"
            onClick={() => dry.mutate()}
            disabled={dry.isPending || dryRunning}
            data-testid="billing-run-dry"
          >
            {t('billingUi.runs.dry')}
          </Button>
          <Button
            variant="contained"
            onClick={() => start.mutate()}
            disabled={start.isPending || !dryResult}
            data-testid="billing-run-start"
          >
            {t('billingUi.runs.start')}
          </Button>
        </Box>
        {error && (
          <Alert severity="warning" sx={{ mt: 2 }} data-testid="billing-run-error">
            {errorMessage(t, error)}
          </Alert>
        )}
        {dryJobId !== null && dryJob.data?.state !== 'succeeded' && (
          <JobProgress job={dryJob.data} label="billingUi.runs.dryProgress" testId="billing-dry-progress" />
        )}
        {dryResult && <DryRunResult dry={dryResult} />}
      </Section>
      <Section title={t('billingUi.runs.list')}>
        <RunsTable
          runs={runs.data ?? []}
          onFinalize={(run) => finalize.mutate(run)}
          finalizing={finalize.isPending}
        />
      </Section>
    </>
  );
}
