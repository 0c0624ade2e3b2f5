import './i18n/index.ts';
import PointOfSaleOutlinedIcon from '@mui/icons-material/PointOfSaleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type ConsumerDebts,
  cashierMethods,
  Decimal,
  formatMoney,
  moneyString,
  type Payment,
  parseDecimal,
  writtenCode,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';
import { openFile, paymentsApi } from './api.ts';
import { DayPanel } from './DayPanel.tsx';
import { DebtsTable } from './DebtsTable.tsx';

const KINDS = ['payment', '2', '3', '16'] as const;

/** /payments/cashier: find a consumer's debts, collect, print the receipt; today's collections and Z. */
export default function CashierPage() {
  const { t } = useTranslation();
  const title = t('paymentsUi.cashier.title');
  useAppBar({ title });
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  const found = useQuery({
    queryKey: ['payments', 'debts', asked],
    queryFn: ({ signal }) => paymentsApi.findDebts(asked, signal),
    enabled: asked.length >= 2,
    retry: false,
  });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setAsked(text.trim());
  };
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('paymentsUi.cashier.subtitle')}
        avatar={<PointOfSaleOutlinedIcon />}
        testId="payments-cashier-header"
      />
      <Stack spacing={2}>
        <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={search}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <TextField
              label={t('paymentsUi.cashier.search')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              size="small"
              fullWidth
              autoFocus
              slotProps={{ htmlInput: { 'data-testid': 'payments-search' } }}
            />
            <Button type="submit" variant="contained" disabled={text.trim().length < 2}>
              {t('paymentsUi.cashier.find')}
            </Button>
          </Stack>
        </Paper>
        {found.isError && (
          <Alert severity="info" data-testid="payments-search-error">
            {errorMessage(t, found.error)}
          </Alert>
        )}
        {found.data?.map((holder) => (
          <ConsumerPayment key={holder.consumer.id} holder={holder} onPaid={() => void found.refetch()} />
        ))}
        <DayPanel />
      </Stack>
    </>
  );
}

function ConsumerPayment({ holder, onPaid }: { holder: ConsumerDebts; onPaid: () => void }) {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<number[]>([]);
  const [kind, setKind] = useState<(typeof KINDS)[number]>('payment');
  const [method, setMethod] = useState<(typeof cashierMethods)[number]>('cash');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [receipt, setReceipt] = useState<Payment | null>(null);
  const selectedSum = moneyString(
    holder.debts
      .filter((d) => selected.includes(d.id))
      .reduce((sum, d) => sum.plus(d.remaining), new Decimal(0)),
  );
  const suggested = selected.length > 0 ? selectedSum : holder.due;
  const pay = useMutation({
    mutationFn: () =>
      paymentsApi.pay({
        consumerId: holder.consumer.id,
        method,
        amount: amount.trim() || suggested,
        debtIds: kind === 'payment' ? selected : [],
        prepaymentKind: kind === 'payment' ? null : (Number(kind) as 2 | 3 | 16),
        reference: reference.trim() || null,
      }),
    onSuccess: (payment) => {
      setReceipt(payment);
      setSelected([]);
      setAmount('');
      setReference('');
      void queryClient.invalidateQueries({ queryKey: ['payments'] });
      onPaid();
    },
    onError: (error) => notify(errorMessage(t, error), 'error'),
  });
  const toggle = (id: number) =>
    setSelected((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]));
  const openReceipt = (id: number) =>
    void openFile(`/api/payments/payments/${id}/receipt?lang=${language}`).catch(() =>
      notify(t('paymentsUi.cashier.pdfError'), 'error'),
    );
  const { consumer } = holder;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="payments-consumer">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {writtenCode(consumer.code)} · {consumer.ownerName}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {[consumer.vatNumber, consumer.supplyAddress].filter(Boolean).join(' · ')}
      </Typography>
      {holder.debts.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('paymentsUi.cashier.choose')}
          </Typography>
          <DebtsTable
            debts={holder.debts}
            due={holder.due}
            interest={holder.interest}
            showInterest={holder.debts.some((d) => d.interest !== '0.00')}
            selected={kind === 'payment' ? selected : []}
            onToggle={kind === 'payment' ? toggle : undefined}
          />
        </>
      )}
      <Box
        component="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          pay.mutate();
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 2, alignItems: 'center' }}
      >
        <TextField
          select
          size="small"
          label={t('paymentsUi.cashier.kind')}
          value={kind}
          onChange={(e) => setKind(e.target.value as (typeof KINDS)[number])}
          fullWidth={false}
          sx={{ width: 240 }}
        >
          {KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {k === 'payment' ? t('paymentsUi.cashier.kindPayment') : t(`payments.kind.${k}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('paymentsUi.cashier.method')}
          value={method}
          onChange={(e) => setMethod(e.target.value as (typeof cashierMethods)[number])}
          fullWidth={false}
          sx={{ width: 200 }}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'payments-method' } as object } }}
        >
          {cashierMethods
            .filter((m) => m !== 'bank')
            .map((m) => (
              <MenuItem key={m} value={m}>
                {t(`payments.method.${m}`)}
              </MenuItem>
            ))}
        </TextField>
        <TextField
          size="small"
          label={t('paymentsUi.cashier.amount')}
          value={amount}
          placeholder={formatMoney(suggested, language)}
          onChange={(e) => setAmount(e.target.value)}
          fullWidth={false}
          sx={{ width: 140 }}
          slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'payments-amount' } }}
        />
        {(method === 'cheque' || method === 'transfer') && (
          <TextField
            size="small"
            label={t('paymentsUi.cashier.reference')}
            value={reference}
            onChange={(e) => setReference(e.target.value)}
          />
        )}
        <Button type="submit" variant="contained" disabled={pay.isPending} data-testid="payments-pay">
          {t('paymentsUi.cashier.pay')}{' '}
          {formatMoney(amount.trim() ? (parseDecimal(amount) ?? 0) : suggested, language)} €
        </Button>
      </Box>
      {receipt && (
        <Alert
          severity="success"
          sx={{ mt: 2 }}
          data-testid="payments-receipt"
          action={
            <Button color="inherit" size="small" onClick={() => openReceipt(receipt.id)}>
              {t('paymentsUi.cashier.openReceipt')}
            </Button>
          }
        >
          {t('paymentsUi.cashier.paid', { number: `${receipt.receiptNumber}/${receipt.receiptYear}` })}
          {receipt.unallocated !== '0.00' &&
            ` · ${t('paymentsUi.cashier.credit', { amount: formatMoney(receipt.unallocated, language) })}`}
        </Alert>
      )}
    </Paper>
  );
}
