import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type PerLineReport, perLineReportSchema } from '@protocol/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportPanel as PipelinePanel } from '../../components/ImportPanel/ImportPanel.tsx';
import { jobErrorText, useJob } from '../../lib/jobs.ts';
import type { PeriodKey } from './readoutsApi.ts';
import { SmartvilleControls } from './SmartvilleControls.tsx';

/** A smartville pull's report: every line with its result. */
interface PullResult {
  lines: { line: number; result: 1 | 0 | -1; reference: string; message: string }[];
  success: number;
  warnings: number;
  failed: number;
}

const resultColor = { 1: 'success', 0: 'warning', [-1]: 'error' } as const;

/**
 * Imports of readings: a handheld CSV/Excel or a drive-by AMR file through the platform's import
 * panel (dry run, import, progress, stop, result file; its bad lines skipped and listed), or a
 * smartville pull as a background job with its per-line report.
 */
export function ImportPanel({
  periodKey,
  months,
  onDone,
}: {
  periodKey: PeriodKey;
  months: number;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [source, setSource] = useState<2 | 3 | 4>(4);
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useJob(jobId, (ended) => {
    if (ended.state === 'succeeded') onDone();
  });
  const result = job.data?.state === 'succeeded' ? (job.data.result as PullResult) : null;
  const running = jobId !== null && !result && job.data?.state !== 'failed';

  const summary = (report: PerLineReport) =>
    report.dryRun
      ? t('readoutsUi.import.dryRun', { rows: report.rows, failed: report.failed })
      : t('readoutsUi.import.done', {
          success: report.success,
          warnings: report.warnings,
          failed: report.failed,
        });

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t(source === 2 ? 'readoutsUi.smartville.help' : 'readoutsUi.import.help')}
      </Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: source === 2 ? 'flex-start' : 'center' } }}
      >
        <TextField
          select
          size="small"
          label={t('readoutsUi.import.source')}
          value={source}
          onChange={(e) => setSource(Number(e.target.value) as 2 | 3 | 4)}
          sx={{ minWidth: 260 }}
        >
          <MenuItem value={4}>{t('readoutsUi.import.source_4')}</MenuItem>
          <MenuItem value={3}>{t('readoutsUi.import.source_3')}</MenuItem>
          <MenuItem value={2}>{t('readoutsUi.import.source_2')}</MenuItem>
        </TextField>
        {source === 2 && (
          <SmartvilleControls periodKey={periodKey} months={months} busy={running} onStarted={setJobId} />
        )}
      </Stack>
      {source !== 2 && (
        <Box sx={{ mt: 2 }}>
          <PipelinePanel
            key={source}
            path={`/api/readouts/import?source=${source}&year=${periodKey.year}&period=${periodKey.period}`}
            accept=".csv,.txt,.xlsx"
            testId="readings-import"
            perLine
            schema={perLineReportSchema}
            summary={summary}
            onImported={onDone}
          />
        </Box>
      )}
      {source === 2 && running && <LinearProgress sx={{ mt: 2 }} />}
      {source === 2 && job.data?.state === 'failed' && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="import-job-error">
          {jobErrorText(t, job.data)}
        </Alert>
      )}
      {source === 2 && result && (
        <Box sx={{ mt: 2 }} data-testid="import-report">
          <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
            <Chip color="success" label={t('readoutsUi.import.success', { count: result.success })} />
            <Chip color="warning" label={t('readoutsUi.import.warnings', { count: result.warnings })} />
            <Chip
              color="error"
              label={t('readoutsUi.import.failed', { count: result.failed })}
              data-testid="import-failed"
            />
          </Stack>
          <Table size="small">
            <TableHead>
              <TableRow>
                {['line', 'result', 'reference', 'message'].map((c) => (
                  <TableCell key={c} sx={{ fontWeight: 600 }}>
                    {t(`readoutsUi.import.col_${c}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {result.lines.map((line) => (
                <TableRow key={line.line} data-testid="import-line" data-result={line.result}>
                  <TableCell>{line.line}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={resultColor[line.result]}
                      label={t(`readoutsUi.import.result_${line.result}`)}
                    />
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'pre' }}>{line.reference}</TableCell>
                  <TableCell>{line.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}
