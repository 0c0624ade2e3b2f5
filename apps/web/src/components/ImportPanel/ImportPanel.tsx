import './i18n/index.ts';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  type ImportReport,
  importAbortPath,
  importResultPath,
  type Job,
  type PerLineReport,
} from '@protocol/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { fetchFile, pageLanguage, saveBlob, uploadFile } from '../../lib/files.ts';
import { jobEnded, jobErrorText, useJob } from '../../lib/jobs.ts';
import { ChooseFileButton } from '../ChooseFileButton.tsx';
import { useNotify } from '../Notifier.tsx';

export interface ImportPanelProps<R extends ImportReport> {
  /** The upload's address; `dryRun=true|false` is added to it. */
  path: string;
  /** The file types the picker offers. */
  accept: string;
  /** The file goes as the request's body of this type (an .xlsx-only import), else as a form. */
  bodyType?: string;
  /** Refused in the browser above this size, with `tooBig`. */
  maxBytes?: number;
  tooBig?: string;
  /** The prefix of the panel's test ids (`<testId>-file`, `-dry-run`, `-run`, `-summary`, …). */
  testId: string;
  /** The import's result (the pipeline's report and the import's own counts). */
  schema: z.ZodType<R>;
  /**
   * A per-line import (its report a `PerLineReport`): its bad lines are skipped, so a checked file
   * imports with them, and the report lists every line not a plain success (level, line, why).
   */
  perLine?: boolean;
  /** The report's headline: a dry run's or an import's, clean or not. */
  summary: (result: R) => string;
  /** What an import that wrote shows under its headline (its counts). */
  details?: (result: R) => ReactNode;
  /** Controls beside the file picker (a template to download). */
  extra?: ReactNode;
  /** Told once when an import (not a dry run) ends, written or stopped. */
  onImported?: (result: R) => void;
  /** Told when a job starts or ends, so a dialog around the panel stays open meanwhile. */
  onRunning?: (running: boolean) => void;
}

/**
 * The one import panel of the web app, over the platform's import pipeline: choose a file → dry run
 * (its report: counts and every bad line) → import the clean file → progress, with an abort between
 * chunks → the result, and its file (every row with its outcome) to download.
 */
export function ImportPanel<R extends ImportReport>(props: ImportPanelProps<R>) {
  const { path, accept, bodyType, maxBytes, tooBig, testId, schema, summary, details, extra, perLine } =
    props;
  const { t } = useTranslation();
  const notify = useNotify();
  const [file, setFile] = useState<File | null>(null);
  const [checkedFile, setCheckedFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const job = useJob(jobId, (ended: Job) => {
    props.onRunning?.(false);
    const parsed = schema.safeParse(ended.result);
    if (parsed.success && !parsed.data.dryRun) props.onImported?.(parsed.data);
  });
  const running = jobId !== null && !jobEnded(job.data?.state);
  const ended = job.data && jobEnded(job.data.state) ? job.data : null;
  const parsed = ended?.result ? schema.safeParse(ended.result) : null;
  const result: R | null = parsed?.success ? parsed.data : null;
  const clean = Boolean(result?.dryRun && (perLine || result.errors.length === 0) && checkedFile === file);
  const notes = perLine && result ? ((result as Partial<PerLineReport>).lines ?? []) : [];

  const choose = (chosen: File | null) => {
    if (chosen && maxBytes !== undefined && chosen.size > maxBytes) {
      notify(tooBig ?? t('importPanel.tooBig'), 'error');
      return;
    }
    setFile(chosen);
    setJobId(null);
  };

  const start = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    try {
      const url = `${path}${path.includes('?') ? '&' : '?'}dryRun=${dryRun}`;
      let body: FormData | Blob = file;
      if (!bodyType) {
        body = new FormData();
        body.append('file', file);
      }
      const started = await uploadFile<{ jobId: number }>(url, body, bodyType);
      setJobId(started.jobId);
      props.onRunning?.(true);
      if (dryRun) setCheckedFile(file);
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setBusy(false);
    }
  };

  const abort = async () => {
    if (jobId === null) return;
    try {
      await api.post(importAbortPath(jobId));
      await job.refetch();
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    }
  };

  const download = async () => {
    if (jobId === null) return;
    try {
      const response = await fetchFile(importResultPath(jobId), { headers: pageLanguage() });
      saveBlob(await response.blob(), t('importPanel.resultFile', { id: jobId }));
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    }
  };

  const total = job.data?.progressTotal ?? 0;
  const done = job.data?.progressDone ?? 0;
  const importing = running && job.data?.progressMessage === 'import';
  return (
    <Stack spacing={2} data-testid={`${testId}-panel`}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        {extra}
        <ChooseFileButton
          file={file}
          prompt={t('importPanel.choose')}
          accept={accept}
          onChoose={choose}
          testId={`${testId}-file`}
        />
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          startIcon={<FactCheckOutlinedIcon />}
          disabled={!file || running || busy}
          onClick={() => start(true)}
          data-testid={`${testId}-dry-run`}
        >
          {t('importPanel.dryRun')}
        </Button>
        <Button
          variant="contained"
          disabled={!clean || running || busy}
          onClick={() => start(false)}
          data-testid={`${testId}-run`}
        >
          {t('importPanel.run')}
        </Button>
      </Stack>
      {!file && !result && (
        <Typography variant="body2" color="text.secondary">
          {t('importPanel.noFile')}
        </Typography>
      )}
      {running && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid={`${testId}-progress`}>
          <Box sx={{ flex: 1 }}>
            <LinearProgress
              variant={total > 0 ? 'determinate' : 'indeterminate'}
              value={total > 0 ? (done / total) * 100 : 0}
            />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {t(importing ? 'importPanel.writing' : 'importPanel.checking', { done, total })}
            </Typography>
          </Box>
          {importing && (
            <Button
              color="warning"
              startIcon={<StopCircleOutlinedIcon />}
              onClick={abort}
              data-testid={`${testId}-abort`}
            >
              {t('importPanel.abort')}
            </Button>
          )}
        </Stack>
      )}
      {job.data?.state === 'failed' && (
        <Alert severity="error" data-testid={`${testId}-failed`}>
          {jobErrorText(t, job.data)}
        </Alert>
      )}
      {result && (
        <Box data-testid={`${testId}-report`}>
          <Alert
            severity={
              result.aborted
                ? 'info'
                : result.errors.length === 0 && notes.length === 0
                  ? 'success'
                  : 'warning'
            }
            data-testid={`${testId}-summary`}
            action={
              // The file of an import's rows, or of a report's bad lines (a clean dry run has none).
              !result.dryRun || result.errors.length > 0 ? (
                <Button
                  color="inherit"
                  size="small"
                  startIcon={<DownloadOutlinedIcon />}
                  onClick={download}
                  data-testid={`${testId}-result`}
                >
                  {t('importPanel.download')}
                </Button>
              ) : undefined
            }
          >
            {result.aborted
              ? t('importPanel.aborted', { applied: result.applied, rows: result.rows })
              : summary(result)}
          </Alert>
          {!result.dryRun && (perLine || result.errors.length === 0) && details?.(result)}
          {notes.length > 0 && (
            <Table size="small" sx={{ mt: 1 }}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 130 }}>{t('importPanel.level')}</TableCell>
                  <TableCell sx={{ width: 90 }}>{t('importPanel.line')}</TableCell>
                  <TableCell>{t('importPanel.message')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {notes.map((note) => (
                  <TableRow key={note.line} data-testid={`${testId}-line`} data-level={note.level}>
                    <TableCell>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={note.level === 'failed' ? 'error' : 'warning'}
                        label={t(`importPanel.level_${note.level}`)}
                      />
                    </TableCell>
                    <TableCell>{note.line}</TableCell>
                    <TableCell>{note.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {!perLine && result.errors.length > 0 && (
            <Table size="small" sx={{ mt: 1 }}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 90 }}>{t('importPanel.line')}</TableCell>
                  <TableCell sx={{ width: 240 }}>{t('importPanel.column')}</TableCell>
                  <TableCell>{t('importPanel.reason')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.errors.map((error) => (
                  <TableRow
                    key={`${error.line}-${error.column}-${error.reason}`}
                    data-testid={`${testId}-error`}
                  >
                    <TableCell>{error.line}</TableCell>
                    <TableCell>{error.column}</TableCell>
                    <TableCell>{error.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Box>
      )}
    </Stack>
  );
}
