import './i18n/index.ts';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatMoney } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { formatDate } from '../../lib/dates.ts';
import { useLang } from '../../lib/language.tsx';
import { openFile, paymentsApi } from './api.ts';
import { DebtsTable } from './DebtsTable.tsx';

/** The consumer card's "Account" tab: open debts (interest apart), the ledger with running balance, the statement. */
export default function ConsumerAccountTab({ consumerId }: { consumerId: number }) {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const account = useQuery({
    queryKey: ['payments', 'account', consumerId],
    queryFn: ({ signal }) => paymentsApi.account(consumerId, signal),
  });
  if (account.isError) return <RetryAlert error={account.error} onRetry={() => void account.refetch()} />;
  const data = account.data;
  if (!data) return null;
  const money = (value: string) => formatMoney(value, language);
  const statement = (query: string, download?: string) =>
    void openFile(`/api/payments/accounts/${consumerId}/statement?${query}`, download).catch(() =>
      notify(t('paymentsUi.cashier.pdfError'), 'error'),
    );
  const head = (key: string, right = false) => (
    <TableCell sx={{ fontWeight: 600 }} align={right ? 'right' : 'left'}>
      {t(`paymentsUi.account.${key}`)}
    </TableCell>
  );
  return (
    <Stack spacing={2} data-testid="consumer-account">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Paper variant="outlined" sx={{ px: 2, py: 1 }}>
          <Typography variant="caption" color="text.secondary">
            {t('paymentsUi.account.balance')}
          </Typography>
          <Typography variant="h6" data-testid="account-balance">
            {money(data.balance)} €
          </Typography>
        </Paper>
        <Paper variant="outlined" sx={{ px: 2, py: 1 }}>
          <Typography variant="caption" color="text.secondary">
            {t('paymentsUi.account.due')}
          </Typography>
          <Typography variant="h6">{money(data.due)} €</Typography>
        </Paper>
        {data.interestEnabled && (
          <Paper variant="outlined" sx={{ px: 2, py: 1 }}>
            <Typography variant="caption" color="text.secondary">
              {t('paymentsUi.debts.interestApart')}
            </Typography>
            <Typography variant="h6" color="warning.main">
              {money(data.interest)} €
            </Typography>
          </Paper>
        )}
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', ml: { sm: 'auto !important' } }}>
          <Button size="small" variant="outlined" onClick={() => statement('lang=el')}>
            {t('paymentsUi.account.statementEl')}
          </Button>
          <Button size="small" variant="outlined" onClick={() => statement('lang=en')}>
            {t('paymentsUi.account.statementEn')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            onClick={() => statement(`format=xlsx&lang=${language}`, `statement-${consumerId}.xlsx`)}
          >
            {t('paymentsUi.account.excel')}
          </Button>
        </Stack>
      </Stack>
      <Paper variant="outlined">
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          {t('paymentsUi.account.debts')}
          {data.interestEnabled && (
            <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              {t('paymentsUi.account.asOf', { date: formatDate(data.asOf) })}
            </Typography>
          )}
        </Typography>
        {data.debts.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('paymentsUi.debts.none')}
          </Typography>
        ) : (
          <DebtsTable
            debts={data.debts}
            due={data.due}
            interest={data.interest}
            showInterest={data.interestEnabled}
          />
        )}
      </Paper>
      <Paper variant="outlined">
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          {t('paymentsUi.account.ledger')}
        </Typography>
        {data.entries.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('paymentsUi.account.empty')}
          </Typography>
        ) : (
          <Table size="small" data-testid="account-ledger">
            <TableHead>
              <TableRow>
                {head('date')}
                {head('entry')}
                {head('description')}
                {head('debit', true)}
                {head('credit', true)}
                {head('balanceCol', true)}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.entries.map((e) => (
                <TableRow key={e.id}>
                  <TableCell>{formatDate(e.date)}</TableCell>
                  <TableCell>
                    {t(`payments.entry.${e.type}`)}
                    {e.kind !== null && e.kind !== 1 && (
                      <Typography component="span" variant="caption" color="text.secondary">
                        {' '}
                        ({e.kind})
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>{e.description}</TableCell>
                  <TableCell align="right">{e.debit === '0.00' ? '' : money(e.debit)}</TableCell>
                  <TableCell align="right">{e.credit === '0.00' ? '' : money(e.credit)}</TableCell>
                  <TableCell align="right" sx={{ fontWeight: 500 }}>
                    {money(e.balance)}
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
