import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChooseFileButton } from '../../components/ChooseFileButton.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { uploadFile } from '../../lib/files.ts';
import { jobErrorText, useJob } from '../../lib/jobs.ts';
import { notify } from '../../lib/notifier.ts';
import type { PeriodKey } from './readoutsApi.ts';
import { SmartvilleControls } from './SmartvilleControls.tsx';

interface ImportResult {
  lines: { line: number; result: 1 | 0 | -1; reference: string; message: string }[];
  success: number;
  warnings: number;
  failed: number;
}

const resultColor = { 1: 'success', 0: 'warning', [-1]: 'error' } as const;

/**
 * Imports of readings (handheld CSV/Excel, drive-by AMR, a smartville pull) as a background job,
 * with its per-line report.
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
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [starting, setStarting] = useState(false);
  const job = useJob(jobId, (ended) => {
    if (ended.state === 'succeeded') onDone();
  });
  const result = job.data?.state === 'succeeded' ? (job.data.result as ImportResult) : null;
  const running = jobId !== null && !result && job.data?.state !== 'failed';

  const start = async () => {
    if (!file) return;
    setStarting(true);
    try {
      const form = new FormData();
      form.append('file', file);
      const url = `/api/readouts/import?source=${source}&year=${periodKey.year}&period=${periodKey.period}`;
      const started = await uploadFile<{ jobId: number }>(url, form);
      setJobId(started.jobId);
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setStarting(false);
    }
  };

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
        {source === 2 ? (
          <SmartvilleControls periodKey={periodKey} months={months} busy={running} onStarted={setJobId} />
        ) : (
          <>
            <ChooseFileButton
              file={file}
              prompt={t('readoutsUi.import.choose')}
              accept=".csv,.txt,.xlsx"
              onChoose={setFile}
              testId="import-file"
            />
            <Button
              variant="contained"
              disabled={!file || starting || running}
              onClick={() => void start()}
              data-testid="import-start"
            >
              {t('readoutsUi.import.start')}
            </Button>
          </>
        )}
      </Stack>
      {running && <LinearProgress sx={{ mt: 2 }} />}
      {job.data?.state === 'failed' && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="import-job-error">
          {jobErrorText(t, job.data)}
        </Alert>
      )}
      {result && (
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
