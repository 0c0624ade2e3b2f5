import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { formatMoney } from '@protocol/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ChooseFileButton } from '../../../components/ChooseFileButton.tsx';
import { useNotify } from '../../../components/Notifier.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { jobEnded, jobErrorText, useJob } from '../../../lib/jobs.ts';
import { useLang, useLocalize } from '../../../lib/language.tsx';
import { bankApi } from './bankApi.ts';

/** The upload of a bank file by its layout, the import's progress, and the files imported so far. */
export function BankImportPanel() {
  const { t } = useTranslation();
  const language = useLang();
  const localize = useLocalize();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const layouts = useQuery({
    queryKey: ['bank', 'layouts'],
    queryFn: ({ signal }) => bankApi.layouts(signal),
  });
  const files = useQuery({
    queryKey: ['bank', 'files'],
    queryFn: ({ signal }) => bankApi.files(signal),
  });
  const active = (layouts.data ?? []).filter((l) => l.active);
  const [layoutId, setLayoutId] = useState<number | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [started, setStarted] = useState<{ jobId: number; fileId: number } | null>(null);
  const [starting, setStarting] = useState(false);
  const chosen = layoutId === '' ? (active[0]?.id ?? '') : layoutId;
  const job = useJob(started?.jobId ?? null);
  const state = job.data?.state;
  useEffect(() => {
    if (state !== 'succeeded' || !started) return;
    void queryClient.invalidateQueries({ queryKey: ['bank'] });
    navigate(localize(`/payments/bank/files/${started.fileId}`));
  }, [state, started, queryClient, navigate, localize]);

  const start = async () => {
    if (!file || chosen === '') return;
    setStarting(true);
    try {
      setStarted(await bankApi.upload(chosen, file));
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setStarting(false);
    }
  };
  const running = started !== null && !jobEnded(state);
  const number = (n: number) => n.toLocaleString(language === 'el' ? 'el-GR' : 'en-GB');
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('bankUi.import.help')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            select
            size="small"
            label={t('bankUi.import.layout')}
            value={chosen}
            onChange={(e) => setLayoutId(Number(e.target.value))}
            sx={{ minWidth: 320 }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'bank-layout' } as object } }}
          >
            {active.map((l) => (
              <MenuItem key={l.id} value={l.id}>
                {l.code} · {l.descr}
              </MenuItem>
            ))}
          </TextField>
          <ChooseFileButton
            file={file}
            prompt={t('bankUi.import.choose')}
            accept=".csv,.txt,.dat"
            onChoose={setFile}
            testId="bank-file"
          />
          <Button
            variant="contained"
            disabled={!file || chosen === '' || starting || running}
            onClick={() => void start()}
            data-testid="bank-start"
          >
            {t('bankUi.import.start')}
          </Button>
        </Stack>
        {running && (
          <Box sx={{ mt: 2, maxWidth: 560 }} data-testid="bank-progress">
            <LinearProgress
              variant={job.data?.progressTotal ? 'determinate' : 'indeterminate'}
              value={
                job.data?.progressTotal
                  ? (100 * (job.data.progressDone ?? 0)) / job.data.progressTotal
                  : undefined
              }
            />
            <Typography variant="caption" color="text.secondary">
              {job.data?.progressTotal
                ? t('bankUi.import.progress', {
                    done: number(job.data.progressDone ?? 0),
                    total: number(job.data.progressTotal),
                  })
                : t('bankUi.import.queued')}
            </Typography>
          </Box>
        )}
        {(state === 'failed' || state === 'cancelled') && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {job.data?.error ? jobErrorText(t, job.data) : t('bankUi.state.failed')}
          </Alert>
        )}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
          {t('bankUi.import.files')}
        </Typography>
        {files.data?.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('bankUi.import.noFiles')}
          </Typography>
        )}
        {files.isError && <Alert severity="error">{errorMessage(t, files.error)}</Alert>}
        {(files.data?.length ?? 0) > 0 && (
          <Table size="small" data-testid="bank-files">
            <TableHead>
              <TableRow>
                {['file', 'when', 'by', 'state', 'lines'].map((c) => (
                  <TableCell key={c} sx={{ fontWeight: 600 }}>
                    {t(`bankUi.import.${c}`)}
                  </TableCell>
                ))}
                <TableCell sx={{ fontWeight: 600 }} align="right">
                  {t('bankUi.import.paid')}
                </TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {files.data?.map((f) => (
                <TableRow key={f.id} hover>
                  <TableCell>
                    {f.fileName}
                    <Typography variant="caption" component="div" color="text.secondary">
                      {f.layoutCode} · {f.layoutDescr}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(f.createdate)}</TableCell>
                  <TableCell>{f.createuser}</TableCell>
                  <TableCell>{t(`bankUi.state.${f.state}`)}</TableCell>
                  <TableCell>{f.summary ? number(f.summary.lines) : ''}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {f.summary ? formatMoney(f.summary.paid, language) : ''}
                  </TableCell>
                  <TableCell align="right">
                    <Button size="small" onClick={() => navigate(localize(`/payments/bank/files/${f.id}`))}>
                      {t('bankUi.import.open')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}
