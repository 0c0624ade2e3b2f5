import '../i18n/index.ts';
import './i18n/index.ts';
import ArrowBackOutlinedIcon from '@mui/icons-material/ArrowBackOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type BankLineStatus, bankLineStatuses, formatMoney } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useAppBar } from '../../../lib/appBarContext.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useLang, useLocalize } from '../../../lib/language.tsx';
import { BankLinesTable, statusColor } from './BankLines.tsx';
import { bankApi } from './bankApi.ts';

/** /payments/bank/files/:id: a bank file's report, its counts per result and each line's reason. */
export default function BankFilePage() {
  const { t } = useTranslation();
  const language = useLang();
  const localize = useLocalize();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const [status, setStatus] = useState<BankLineStatus | null>(null);
  const report = useQuery({
    queryKey: ['bank', 'file', id, status],
    queryFn: ({ signal }) => bankApi.report(id, status, signal),
    placeholderData: (previous) => previous,
  });
  useAppBar({ title: t('bankUi.title') });
  const file = report.data?.file;
  const summary = file?.summary;
  return (
    <>
      <PageHeader
        title={file ? t('bankUi.report.title', { name: file.fileName }) : t('bankUi.title')}
        subtitle={
          file
            ? t('bankUi.report.subtitle', {
                layout: `${file.layoutCode} · ${file.layoutDescr}`,
                when: formatDateTime(file.createdate),
                user: file.createuser ?? '',
              })
            : undefined
        }
        avatar={<ReceiptLongOutlinedIcon />}
        actions={
          <Button startIcon={<ArrowBackOutlinedIcon />} onClick={() => navigate(localize('/payments/bank'))}>
            {t('bankUi.report.back')}
          </Button>
        }
        testId="bank-report-header"
      />
      {report.isError && <Alert severity="error">{errorMessage(t, report.error)}</Alert>}
      {file && summary && (
        <Paper variant="outlined" sx={{ p: 2 }} data-testid="bank-report">
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ flexWrap: 'wrap', mb: 2, alignItems: 'center' }}
          >
            <Chip
              label={t('bankUi.report.all', { count: summary.lines })}
              color={status === null ? 'primary' : 'default'}
              variant={status === null ? 'filled' : 'outlined'}
              onClick={() => setStatus(null)}
            />
            {bankLineStatuses
              .filter((s) => summary[s] > 0)
              .map((s) => (
                <Chip
                  key={s}
                  data-testid={`bank-count-${s}`}
                  label={`${t(`bank.status.${s}`)}: ${summary[s]}`}
                  color={statusColor[s]}
                  variant={status === s ? 'filled' : 'outlined'}
                  onClick={() => setStatus(s)}
                />
              ))}
            <Typography variant="body2" sx={{ ml: 'auto', fontWeight: 600 }} data-testid="bank-paid">
              {t('bankUi.report.paid', { amount: formatMoney(summary.paid, language) })}
            </Typography>
          </Stack>
          {file.error && <Alert severity="error">{t(file.error, { defaultValue: file.error })}</Alert>}
          <BankLinesTable lines={report.data?.lines ?? []} testId="bank-lines" />
          {report.data && report.data.count > report.data.lines.length && (
            <Typography variant="caption" color="text.secondary" sx={{ mt: 1, display: 'block' }}>
              {t('bankUi.report.more', { shown: report.data.lines.length, count: report.data.count })}
            </Typography>
          )}
        </Paper>
      )}
    </>
  );
}
