import './i18n/index.ts';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type ConsumerImportResult, consumerImportResultSchema } from '@protocol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { fetchFile, pageLanguage, saveBlob, uploadFile } from '../../lib/files.ts';
import { jobErrorText, useJob } from '../../lib/jobs.ts';
import { consumersKey } from './consumersApi.ts';

/** /consumers/import: moving a utility's register in, a dry run first, then the import (issue 15). */
export default function ImportPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  useAppBar({ title: t('menu.water') });
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [checkedFile, setCheckedFile] = useState<File | null>(null);
  const [starting, setStarting] = useState(false);
  const job = useJob(jobId);
  const running = jobId !== null && job.data?.state !== 'succeeded' && job.data?.state !== 'failed';
  const parsed =
    job.data?.state === 'succeeded' ? consumerImportResultSchema.safeParse(job.data.result) : null;
  const result: ConsumerImportResult | null = parsed?.success ? parsed.data : null;
  const clean = Boolean(result?.dryRun && result.errors.length === 0 && checkedFile === file);

  const download = async () => {
    try {
      const template = '/api/protocol/consumers/import/template';
      const response = await fetchFile(template, { headers: pageLanguage() });
      saveBlob(await response.blob(), t('waterUi.import.templateFile'));
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    }
  };

  const start = async (dryRun: boolean) => {
    if (!file) return;
    setStarting(true);
    try {
      const form = new FormData();
      form.append('file', file);
      const { jobId: id } = await uploadFile<{ jobId: number }>(
        `/api/protocol/consumers/import?dryRun=${dryRun}`,
        form,
      );
      setJobId(id);
      if (dryRun) setCheckedFile(file);
      else void queryClient.invalidateQueries({ queryKey: consumersKey, refetchType: 'none' });
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setStarting(false);
    }
  };

  const total = job.data?.progressTotal ?? 0;
  const done = job.data?.progressDone ?? 0;
  return (
    <Box data-testid="import-page">
      <PageHeader
        title={t('waterUi.import.title')}
        subtitle={t('waterUi.import.subtitle')}
        avatar={<UploadFileOutlinedIcon />}
      />
      <Paper variant="outlined" sx={{ p: 3, mb: 3 }}>
        <Stack spacing={2}>
          <Typography>{t('waterUi.import.steps')}</Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
            <Button
              variant="outlined"
              startIcon={<DownloadOutlinedIcon />}
              onClick={download}
              data-testid="import-template"
            >
              {t('waterUi.import.template')}
            </Button>
            <Button variant="outlined" component="label" startIcon={<UploadFileOutlinedIcon />}>
              {t('waterUi.import.choose')}
              <input
                hidden
                type="file"
                accept=".xlsx,.csv"
                data-testid="import-file"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  event.target.value = '';
                }}
              />
            </Button>
            <Typography color={file ? 'text.primary' : 'text.secondary'} data-testid="import-file-name">
              {file ? file.name : t('waterUi.import.noFile')}
            </Typography>
            <Box sx={{ flex: 1 }} />
            <Button
              variant="outlined"
              startIcon={<FactCheckOutlinedIcon />}
              disabled={!file || running || starting}
              onClick={() => start(true)}
              data-testid="import-dry-run"
            >
              {t('waterUi.import.dryRun')}
            </Button>
            <Button
              variant="contained"
              disabled={!clean || running || starting}
              onClick={() => start(false)}
              data-testid="import-run"
            >
              {t('waterUi.import.run')}
            </Button>
          </Stack>
          {running && (
            <Box data-testid="import-progress">
              <LinearProgress
                variant={total > 0 ? 'determinate' : 'indeterminate'}
                value={total > 0 ? (done / total) * 100 : 0}
              />
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {t('waterUi.import.progress', { done, total })}
              </Typography>
            </Box>
          )}
          {job.data?.state === 'failed' && <Alert severity="error">{jobErrorText(t, job.data)}</Alert>}
        </Stack>
      </Paper>
      {result && <ImportReport result={result} />}
    </Box>
  );
}

function ImportReport({ result }: { result: ConsumerImportResult }) {
  const { t } = useTranslation();
  const ok = result.errors.length === 0;
  const title = result.dryRun
    ? ok
      ? t('waterUi.import.dryRunClean', { rows: result.rows })
      : t('waterUi.import.dryRunErrors', { count: result.errors.length, rows: result.rows })
    : ok
      ? t('waterUi.import.done', { created: result.created, updated: result.updated })
      : t('waterUi.import.notImported', { count: result.errors.length });
  return (
    <Paper variant="outlined" data-testid="import-report">
      <Box sx={{ p: 2 }}>
        <Alert severity={ok ? 'success' : 'warning'} data-testid="import-summary">
          {title}
        </Alert>
        {!result.dryRun && ok && (
          <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
            <Chip label={t('waterUi.import.created', { n: result.created })} />
            <Chip label={t('waterUi.import.updated', { n: result.updated })} />
            <Chip label={t('waterUi.import.tradersCreated', { n: result.tradersCreated })} />
            <Chip label={t('waterUi.import.metersInstalled', { n: result.metersInstalled })} />
          </Stack>
        )}
      </Box>
      {result.errors.length > 0 && (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 90 }}>{t('waterUi.import.line')}</TableCell>
              <TableCell sx={{ width: 280 }}>{t('waterUi.import.column')}</TableCell>
              <TableCell>{t('waterUi.import.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {result.errors.map((error) => (
              <TableRow key={`${error.line}-${error.column}`} data-testid="import-error">
                <TableCell>{error.line}</TableCell>
                <TableCell>{error.column}</TableCell>
                <TableCell>{error.reason}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
