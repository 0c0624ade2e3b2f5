import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type Bill,
  type BillCorrection,
  type ConsumerBill,
  formatDecimal,
  formatMoney,
  periodNameIn,
} from '@protocol/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';
import { BillLinesTable } from './BillLinesTable.tsx';
import { billNumberOf } from './CreditBillDialog.tsx';

/**
 * Issuing the corrected bill of a credited bill: the server computes it as a run would (the period's
 * readings and tariffs of today, the credited bill's extra charges) and shows it first; confirmed, it
 * is numbered in the water-bill series and finalized. A refusal (no reading, already issued) is shown
 * as the server words it.
 */
export function CorrectBillDialog({
  bill,
  onClose,
  onIssued,
}: {
  bill: ConsumerBill;
  onClose: () => void;
  onIssued: (corrected: Bill) => void;
}) {
  const { t } = useTranslation();
  const language = useLang();
  const url = `/api/billing/bills/${bill.id}/correction`;
  const preview = useQuery({
    queryKey: ['billing', 'correction', bill.id],
    queryFn: ({ signal }) => api.get<BillCorrection>(url, { signal }),
    retry: false,
    gcTime: 0,
  });
  const issue = useMutation({
    mutationFn: () => api.post<Bill>(url, {}),
    meta: { errorSnackbar: false },
    onSuccess: onIssued,
  });
  const shown = preview.data;
  const reading = (value: number | null, date: string | null) =>
    value === null ? '—' : `${value}${date ? ` (${formatDate(date)})` : ''}`;
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby="correct-bill-title"
      data-testid="correct-bill-dialog"
    >
      <DialogTitle id="correct-bill-title">
        {t('billingUi.correct.title', { number: billNumberOf(bill) })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('billingUi.correct.explain', { period: periodNameIn(bill.periodLabel, language) })}
        </DialogContentText>
        {preview.isPending && (
          <Stack sx={{ py: 4, alignItems: 'center' }}>
            <CircularProgress size={28} aria-label={t('billingUi.correct.computing')} />
          </Stack>
        )}
        {preview.isError && (
          <Alert severity="warning" data-testid="correct-bill-refused">
            {errorMessage(t, preview.error)}
          </Alert>
        )}
        {issue.isError && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="correct-bill-error">
            {errorMessage(t, issue.error)}
          </Alert>
        )}
        {shown && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 3 }} sx={{ mb: 1.5 }}>
              <Typography variant="body2">
                {t('billingUi.correct.readings', {
                  previous: reading(shown.previousReading, shown.previousDate),
                  current: reading(shown.currentReading, shown.currentDate),
                })}
              </Typography>
              <Typography variant="body2" data-testid="correct-bill-consumption">
                {t('billingUi.correct.consumption', { value: formatDecimal(shown.consumption, language) })}
              </Typography>
              <Typography variant="body2">
                {t('billingUi.correct.dates', {
                  issue: formatDate(shown.issueDate),
                  due: formatDate(shown.dueDate),
                })}
              </Typography>
            </Stack>
            <BillLinesTable bill={shown} testId="correct-bill" />
            <Alert severity="info" sx={{ mt: 2 }} data-testid="correct-bill-compare">
              {t('billingUi.correct.compare', {
                number: shown.replaces.number,
                before: formatMoney(shown.replaces.current, language),
                after: formatMoney(shown.current, language),
              })}
            </Alert>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('billingUi.credit.cancel')}</Button>
        <Button
          variant="contained"
          onClick={() => issue.mutate()}
          disabled={!shown || issue.isPending}
          data-testid="correct-bill-submit"
        >
          {t('billingUi.correct.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
