import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type MydataSource, utilityDay } from '@protocol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isShownDate, wireDate } from '../../components/form/dates.ts';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { jobErrorText } from '../../lib/jobs.ts';
import { mydataApi, type TransmitResult } from './api.ts';
import { useTransmitJob } from './useTransmitJob.ts';

/** Sends every pending document or water bill of a day as one background job, with its progress and outcome. */
export function TransmitDayPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Typed DD/MM/YYYY as every date of the product (the browser's date input follows its own locale).
  const [day, setDay] = useState(() => formatDate(utilityDay(new Date())));
  const dayValid = isShownDate(day);
  const [source, setSource] = useState<MydataSource>('document');
  const [outcome, setOutcome] = useState<{
    result?: TransmitResult;
    error?: string;
    documents: number;
  } | null>(null);
  const tracker = useTransmitJob((job) => {
    setOutcome((o) => ({
      documents: o?.documents ?? 0,
      result: job.result as TransmitResult | undefined,
      error: job.error ? jobErrorText(t, job) : undefined,
    }));
    void queryClient.invalidateQueries({ queryKey: ['list'] });
  });
  const start = useMutation({
    mutationFn: () => {
      const wire = wireDate(day) ?? '';
      return mydataApi.transmit(source === 'bill' ? { billDay: wire } : { day: wire });
    },
    meta: { errorSnackbar: false },
    onSuccess: (answer) => {
      setOutcome({ documents: answer.documents });
      tracker.follow(answer.jobId);
    },
    onError: (error) => setOutcome({ documents: 0, error: errorMessage(t, error) }),
  });
  const job = tracker.job;
  const total = job?.progressTotal ?? outcome?.documents ?? 0;
  const done = job?.progressDone ?? 0;
  const result = outcome?.result;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="mydata-batch">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flexGrow: 1, minWidth: 220 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('mydata.batch.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('mydata.batch.hint')}
          </Typography>
        </Box>
        <TextField
          select
          size="small"
          label={t('mydata.batch.what')}
          value={source}
          onChange={(event) => setSource(event.target.value as MydataSource)}
          sx={{ width: 200 }}
          slotProps={{ htmlInput: { 'data-testid': 'mydata-batch-source' } }}
        >
          <MenuItem value="document">{t('mydata.batch.documents')}</MenuItem>
          <MenuItem value="bill">{t('mydata.batch.bills')}</MenuItem>
        </TextField>
        <TextField
          size="small"
          label={t('mydata.batch.day')}
          value={day}
          placeholder={t('common.dateHint')}
          error={day.trim() !== '' && !dayValid}
          onChange={(event) => setDay(event.target.value)}
          sx={{ width: 170 }}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { inputMode: 'numeric', maxLength: 10, 'data-testid': 'mydata-batch-day' },
          }}
        />
        <Button
          variant="contained"
          startIcon={<SendOutlinedIcon />}
          onClick={() => start.mutate()}
          loading={start.isPending || tracker.active}
          disabled={!dayValid}
          data-testid="mydata-batch-send"
        >
          {t('mydata.batch.send')}
        </Button>
      </Box>
      {tracker.active && (
        <Box sx={{ mt: 2 }} data-testid="mydata-batch-progress">
          <LinearProgress
            variant={total > 0 ? 'determinate' : 'indeterminate'}
            value={total > 0 ? (done / total) * 100 : 0}
          />
          <Typography variant="caption" color="text.secondary">
            {t('mydata.batch.progress', { done, total })}
          </Typography>
        </Box>
      )}
      {!tracker.active && outcome?.error && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="mydata-batch-error">
          {outcome.error}
        </Alert>
      )}
      {!tracker.active && result && (
        <Alert
          severity={result.failed + result.uncertain > 0 ? 'warning' : 'success'}
          sx={{ mt: 2 }}
          data-testid="mydata-batch-result"
        >
          {outcome.documents === 0 ? t('mydata.batch.nothing') : t('mydata.batch.result', { ...result })}
        </Alert>
      )}
    </Paper>
  );
}
