import './i18n/index.ts';
import AssignmentReturnOutlinedIcon from '@mui/icons-material/AssignmentReturnOutlined';
import NoteAddOutlinedIcon from '@mui/icons-material/NoteAddOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ConsumerBill, formatMoney, formatRf, periodNameIn } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api } from '../../lib/api.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useLang } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { openBillPdf } from './api.ts';
import { CorrectBillDialog } from './CorrectBillDialog.tsx';
import { billNumberOf, CreditBillDialog } from './CreditBillDialog.tsx';

const COLUMNS = ['period', 'number', 'amount', 'dueDate', 'state', 'finalized', 'sendStatus', 'rf'] as const;

// The palette's warning and info colours are too light for white text (WCAG contrast): chips of
// those colours are written in dark text, outlined ones in the page's own text colour.
const darkText = { color: 'common.black' } as const;
const primaryText = { color: 'text.primary' } as const;

/** A finalized bill of a period, not yet credited: what a billing administrator may credit. */
const creditable = (bill: ConsumerBill) =>
  bill.kind === 1 && (bill.entryState === 9 || bill.entryState === -2) && bill.creditedById === null;

/** A credited bill of a period with no corrected bill yet: what may be replaced by a corrected one. */
const correctable = (bill: ConsumerBill) =>
  bill.kind === 1 && bill.creditedById !== null && bill.replacedById === null;

/**
 * The consumer card's "Bills" tab: the consumer's bills, newest first, each opening its PDF; a
 * billing administrator credits a finalized bill here (it is never edited), then issues the
 * corrected bill in its place.
 */
export default function ConsumerBillsTab({ consumerId }: { consumerId: number }) {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const can = useCan();
  const [crediting, setCrediting] = useState<ConsumerBill | null>(null);
  const [correcting, setCorrecting] = useState<ConsumerBill | null>(null);
  const bills = useQuery({
    queryKey: ['billing', 'consumer-bills', consumerId],
    queryFn: ({ signal }) =>
      api.get<ConsumerBill[]>(`/api/billing/consumers/${consumerId}/bills`, {
        signal,
      }),
  });
  if (bills.isError) return <RetryAlert error={bills.error} onRetry={() => void bills.refetch()} />;
  const items = bills.data ?? [];
  const open = (bill: ConsumerBill) =>
    void openBillPdf(bill.id, language).catch(() => notify(t('billingUi.invoices.pdfError'), 'error'));
  return (
    <Paper variant="outlined" data-testid="consumer-bills">
      {!bills.isPending && items.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('billingUi.consumerBills.empty')}
        </Typography>
      ) : (
        <TableContainer>
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
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {periodNameIn(bill.periodLabel, language)}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{billNumberOf(bill)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {formatMoney(bill.total, language)} €
                  </TableCell>
                  <TableCell>{bill.correctsId === null ? formatDate(bill.dueDate) : '—'}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                      <Chip
                        size="small"
                        variant={bill.entryState === 9 ? 'filled' : 'outlined'}
                        label={t(`billing.entryState_${bill.entryState}`)}
                      />
                      {bill.correctsId !== null && (
                        <Chip size="small" color="warning" label={t('billingUi.credit.chip')} sx={darkText} />
                      )}
                      {bill.creditedById !== null && (
                        <Chip
                          size="small"
                          color="warning"
                          variant="outlined"
                          label={t('billingUi.credit.credited')}
                          sx={primaryText}
                          data-testid="consumer-bill-credited"
                        />
                      )}
                      {bill.replacesId !== null && (
                        <Chip
                          size="small"
                          color="info"
                          label={t('billingUi.correct.chip')}
                          sx={darkText}
                          data-testid="consumer-bill-corrected"
                        />
                      )}
                      {bill.replacedById !== null && (
                        <Chip size="small" variant="outlined" label={t('billingUi.correct.replaced')} />
                      )}
                    </Stack>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="consumer-bill-finalized">
                    {bill.defdate && (
                      <>
                        <Typography variant="body2">{formatDateTime(bill.defdate)}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {bill.defuser}
                        </Typography>
                      </>
                    )}
                  </TableCell>
                  <TableCell>{t(`billing.sendStatus_${bill.sendStatus}`)}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                    {bill.rfCode ? formatRf(bill.rfCode) : ''}
                  </TableCell>
                  <TableCell align="right" sx={{ py: 0, whiteSpace: 'nowrap' }}>
                    {can('billing:admin') && correctable(bill) && (
                      <Tooltip title={t('billingUi.correct.action')}>
                        <IconButton
                          size="small"
                          color="primary"
                          onClick={() => setCorrecting(bill)}
                          aria-label={t('billingUi.correct.action')}
                          data-testid="consumer-bill-correct"
                        >
                          <NoteAddOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {can('billing:admin') && creditable(bill) && (
                      <Tooltip title={t('billingUi.credit.action')}>
                        <IconButton
                          size="small"
                          onClick={() => setCrediting(bill)}
                          aria-label={t('billingUi.credit.action')}
                          data-testid="consumer-bill-credit"
                        >
                          <AssignmentReturnOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
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
        </TableContainer>
      )}
      {crediting && (
        <CreditBillDialog
          bill={crediting}
          onClose={() => setCrediting(null)}
          onCredited={(credit) => {
            setCrediting(null);
            notify(t('billingUi.credit.done', { number: billNumberOf(credit) }), 'success');
            void bills.refetch();
          }}
        />
      )}
      {correcting && (
        <CorrectBillDialog
          bill={correcting}
          onClose={() => {
            // A refusal (issued meanwhile by someone else) means the list changed too.
            setCorrecting(null);
            void bills.refetch();
          }}
          onIssued={(corrected) => {
            setCorrecting(null);
            notify(t('billingUi.correct.done', { number: billNumberOf(corrected) }), 'success');
            void bills.refetch();
          }}
        />
      )}
    </Paper>
  );
}
