import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_IMPORT_MAX_BYTES,
  type AccountImportResult,
  accountImportResultSchema,
  XLSX_CONTENT_TYPE,
} from '@protocol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { uploadFile } from '../../lib/files.ts';
import { jobEnded, jobErrorText, useJob } from '../../lib/jobs.ts';

/**
 * The accounting plan from Excel (code, description, kind, aggregate) as a background job: a dry run
 * first, listing every bad row, then the import of a clean file, all or nothing; progress shown.
 */
export function AccountsImport({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const client = useQueryClient();
  const path = '/api/finance/accounts/import';
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [checkedFile, setCheckedFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [starting, setStarting] = useState(false);
  const job = useJob(jobId);
  const running = jobId !== null && !jobEnded(job.data?.state);
  const parsed =
    job.data?.state === 'succeeded' ? accountImportResultSchema.safeParse(job.data.result) : null;
  const result: AccountImportResult | null = parsed?.success ? parsed.data : null;
  const clean = Boolean(result?.dryRun && result.errors.length === 0 && checkedFile === file);

  const start = async (dryRun: boolean) => {
    if (!file) return;
    setStarting(true);
    try {
      const started = await uploadFile<{ jobId: number }>(
        `${path}${path.includes('?') ? '&' : '?'}dryRun=${dryRun}`,
        file,
        XLSX_CONTENT_TYPE,
      );
      setJobId(started.jobId);
      if (dryRun) setCheckedFile(file);
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setStarting(false);
    }
  };

  const choose = (chosen: File | undefined) => {
    if (chosen && chosen.size > ACCOUNT_IMPORT_MAX_BYTES) {
      notify(t('finance.accounts.importTooBig'), 'error');
      return;
    }
    setFile(chosen ?? null);
    setJobId(null);
  };

  // Closing after an import that wrote the plan restarts the table from the refetched plan (the table
  // keeps its own drafts); the dialog stayed open until then to show the report.
  const close = async () => {
    if (result && !result.dryRun && result.errors.length === 0) {
      await client.invalidateQueries({ queryKey: ['rowTable'] });
      onImported();
    }
    setOpen(false);
    setFile(null);
    setCheckedFile(null);
    setJobId(null);
  };

  const total = job.data?.progressTotal ?? 0;
  const done = job.data?.progressDone ?? 0;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<UploadFileOutlinedIcon />}
        onClick={() => setOpen(true)}
        data-testid="accounts-import"
      >
        {t('finance.accounts.import')}
      </Button>
      <Dialog open={open} onClose={running ? undefined : close} maxWidth="md" fullWidth>
        <DialogTitle>{t('finance.accounts.importTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} data-testid="accounts-import-dialog">
            <Typography>{t('finance.accounts.importSteps')}</Typography>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Button variant="outlined" component="label" startIcon={<UploadFileOutlinedIcon />}>
                {t('finance.accounts.importChoose')}
                <input
                  hidden
                  type="file"
                  accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  data-testid="accounts-import-file"
                  onChange={(event) => {
                    choose(event.target.files?.[0]);
                    event.target.value = '';
                  }}
                />
              </Button>
              <Typography color={file ? 'text.primary' : 'text.secondary'} data-testid="accounts-import-name">
                {file ? file.name : t('finance.accounts.importNoFile')}
              </Typography>
            </Stack>
            {running && (
              <Box data-testid="accounts-import-progress">
                <LinearProgress
                  variant={total > 0 ? 'determinate' : 'indeterminate'}
                  value={total > 0 ? (done / total) * 100 : 0}
                />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {t('finance.accounts.importProgress', { done, total })}
                </Typography>
              </Box>
            )}
            {job.data?.state === 'failed' && <Alert severity="error">{jobErrorText(t, job.data)}</Alert>}
            {result && <ImportReport result={result} />}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={running}>
            {t('finance.accounts.importClose')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<FactCheckOutlinedIcon />}
            disabled={!file || running || starting}
            onClick={() => start(true)}
            data-testid="accounts-import-check"
          >
            {t('finance.accounts.importCheck')}
          </Button>
          <Button
            variant="contained"
            disabled={!clean || running || starting}
            onClick={() => start(false)}
            data-testid="accounts-import-run"
          >
            {t('finance.accounts.importRun')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function ImportReport({ result }: { result: AccountImportResult }) {
  const { t } = useTranslation();
  const ok = result.errors.length === 0;
  const title = result.dryRun
    ? ok
      ? t('finance.accounts.importClean', { rows: result.rows })
      : t('finance.accounts.importErrors', { count: result.errors.length, rows: result.rows })
    : ok
      ? t('finance.accounts.imported', result)
      : t('finance.accounts.notImported', { count: result.errors.length });
  return (
    <Box data-testid="accounts-import-report">
      <Alert severity={ok ? 'success' : 'warning'} data-testid="accounts-import-summary">
        {title}
      </Alert>
      {!ok && (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 90 }}>{t('finance.accounts.importLine')}</TableCell>
              <TableCell sx={{ width: 160 }}>{t('finance.accounts.importColumn')}</TableCell>
              <TableCell>{t('finance.accounts.importReason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {result.errors.map((error) => (
              <TableRow
                key={`${error.line}-${error.column}-${error.reason}`}
                data-testid="accounts-import-error"
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
  );
}
