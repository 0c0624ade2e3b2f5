import './i18n/index.ts';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ConsumerBill, formatMoney, formatRf } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCompany, withCompany } from '../../app/company.tsx';
import { useLang } from '../../app/language.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';
import { openBillPdf } from './api.ts';

const COLUMNS = ['period', 'number', 'amount', 'dueDate', 'state', 'sendStatus', 'rf'] as const;

/** The consumer card's "Bills" tab: the consumer's bills, newest first, each opening its PDF. */
export default function ConsumerBillsTab({ consumerId }: { consumerId: number }) {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const { companyId } = useCompany();
  const bills = useQuery({
    queryKey: ['billing', 'consumer-bills', companyId, consumerId],
    queryFn: ({ signal }) =>
      api.get<ConsumerBill[]>(withCompany(`/api/billing/consumers/${consumerId}/bills`, companyId), {
        signal,
      }),
  });
  if (bills.isError) return <RetryAlert error={bills.error} onRetry={() => void bills.refetch()} />;
  const items = bills.data ?? [];
  const open = (bill: ConsumerBill) =>
    void openBillPdf(bill.id, companyId, language).catch(() =>
      notify(t('billingUi.invoices.pdfError'), 'error'),
    );
  return (
    <Paper variant="outlined" data-testid="consumer-bills">
      {!bills.isPending && items.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('billingUi.consumerBills.empty')}
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              {COLUMNS.map((c) => (
                <TableCell
                  key={c}
                  align={c === 'amount' ? 'right' : 'left'}
                  sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                >
                  {t(`billingUi.consumerBills.${c}`)}
                </TableCell>
              ))}
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((bill) => (
              <TableRow key={bill.id} hover data-testid="consumer-bill" data-id={bill.id}>
                <TableCell>{bill.periodLabel}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {bill.number === null ? '—' : `${bill.series ?? ''}-${bill.number}/${bill.year}`}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(bill.total, language)} €
                </TableCell>
                <TableCell>{formatDate(bill.dueDate)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant={bill.entryState === 9 ? 'filled' : 'outlined'}
                    label={t(`billing.entryState_${bill.entryState}`)}
                  />
                </TableCell>
                <TableCell>{t(`billing.sendStatus_${bill.sendStatus}`)}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                  {bill.rfCode ? formatRf(bill.rfCode) : ''}
                </TableCell>
                <TableCell align="right" sx={{ py: 0 }}>
                  <Tooltip title={t('billingUi.consumerBills.pdf')}>
                    <IconButton
                      size="small"
                      onClick={() => open(bill)}
                      aria-label={t('billingUi.consumerBills.pdf')}
                      data-testid="consumer-bill-pdf"
                    >
                      <PictureAsPdfOutlinedIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
