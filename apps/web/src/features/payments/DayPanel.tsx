import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatMoney, writtenCode } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { useLang } from '../../lib/language.tsx';
import { openFile, paymentsApi } from './api.ts';

/** The cashier's collections of today, each receipt reopenable, and the day's closing (Z) as a PDF. */
export function DayPanel() {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const day = useQuery({
    queryKey: ['payments', 'day'],
    queryFn: ({ signal }) => paymentsApi.day(signal),
  });
  const open = (path: string) =>
    void openFile(path).catch(() => notify(t('paymentsUi.cashier.pdfError'), 'error'));
  if (day.isError) return <RetryAlert error={day.error} onRetry={() => void day.refetch()} />;
  const summary = day.data;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="payments-day">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('paymentsUi.cashier.day')}
        </Typography>
        <Button
          variant="outlined"
          size="small"
          disabled={!summary || summary.count === 0}
          onClick={() => open(`/api/payments/day_summary/pdf?lang=${language}`)}
        >
          {t('paymentsUi.cashier.zPdf')}
        </Button>
      </Stack>
      {summary && summary.count === 0 ? (
        <Typography color="text.secondary">{t('paymentsUi.cashier.dayEmpty')}</Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.cashier.receipt')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.cashier.consumer')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.cashier.method')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }} align="right">
                {t('paymentsUi.cashier.amount')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {summary?.receipts.map((r) => (
              <TableRow
                key={r.id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => open(`/api/payments/payments/${r.id}/receipt?lang=${language}`)}
              >
                <TableCell>
                  {r.receiptNumber}/{r.receiptYear}
                </TableCell>
                <TableCell>
                  {writtenCode(r.consumerCode)} · {r.ownerName}
                </TableCell>
                <TableCell>
                  {t(`payments.method.${r.method}`)}
                  {r.kind !== null && ` · ${t(`payments.kind.${r.kind}`)}`}
                </TableCell>
                <TableCell align="right">
                  {formatMoney(r.kind === 17 ? `-${r.amount}` : r.amount, language)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {summary && summary.count > 0 && (
        <Typography sx={{ mt: 1, fontWeight: 600, textAlign: 'right' }} data-testid="payments-day-total">
          {t('paymentsUi.cashier.dayTotal', { amount: formatMoney(summary.total, language) })}
        </Typography>
      )}
    </Paper>
  );
}
