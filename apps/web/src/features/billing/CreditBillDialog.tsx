import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import {
  type Bill,
  type ConsumerBill,
  Decimal,
  formatMoney,
  moneyString,
  periodNameIn,
} from '@protocol/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';

/** The printed number of a numbered bill or credit: `ΛΥΔ-17/2026`. */
export const billNumberOf = (bill: Pick<ConsumerBill, 'series' | 'number' | 'year'>) =>
  bill.number === null ? '—' : `${bill.series ?? ''}-${bill.number}/${bill.year}`;

/**
 * Crediting a finalized bill: it is never edited, a credit (kind 4) of its charges is issued in the
 * credit series, with the reason the operator gives (printed on the credit).
 */
export function CreditBillDialog({
  bill,
  onClose,
  onCredited,
}: {
  bill: ConsumerBill;
  onClose: () => void;
  onCredited: (credit: Bill) => void;
}) {
  const { t } = useTranslation();
  const language = useLang();
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const credit = useMutation({
    mutationFn: () => api.post<Bill>(`/api/billing/bills/${bill.id}/credit`, { reason }),
    meta: { errorSnackbar: false },
    onSuccess: onCredited,
    onError: (error) => {
      const onReason = isApiError(error) ? error.fieldErrors.find((e) => e.field === 'reason') : undefined;
      if (onReason) setFieldError(t(onReason.key, onReason.params));
      else setFailure(errorMessage(t, error));
    },
  });
  const submit = () => {
    setFailure(null);
    if (reason.trim() === '') {
      setFieldError(t('validation.required'));
      return;
    }
    setFieldError(null);
    credit.mutate();
  };
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth="sm"
      fullWidth
      aria-labelledby="credit-bill-title"
      data-testid="credit-bill-dialog"
    >
      <DialogTitle id="credit-bill-title">
        {t('billingUi.credit.title', { number: billNumberOf(bill) })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('billingUi.credit.explain', {
            period: periodNameIn(bill.periodLabel, language),
            amount: formatMoney(moneyString(new Decimal(bill.total).minus(bill.previousBalance)), language),
          })}
        </DialogContentText>
        {failure && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="credit-bill-error">
            {failure}
          </Alert>
        )}
        <TextField
          label={t('billingUi.credit.reason')}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setFieldError(null);
          }}
          error={fieldError !== null}
          helperText={fieldError ?? t('billingUi.credit.reasonHint')}
          required
          fullWidth
          multiline
          minRows={2}
          autoFocus
          slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'credit-bill-reason' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('billingUi.credit.cancel')}</Button>
        <Button
          variant="contained"
          color="warning"
          onClick={submit}
          disabled={credit.isPending}
          data-testid="credit-bill-submit"
        >
          {t('billingUi.credit.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
