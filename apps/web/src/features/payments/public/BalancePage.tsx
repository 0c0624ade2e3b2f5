import '../i18n/index.ts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type BalanceLookup, formatMoney, formatRf, type PublicBalance } from '@protocol/contracts';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../../components/BrandMark.tsx';
import { loadEnglish } from '../../../i18n/index.ts';
import { api } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/dates.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useLang } from '../../../lib/language.tsx';

/**
 * /balance (and /en/balance): a citizen's open bills by consumer code and ΑΦΜ, without signing in.
 * Both are required; any mismatch answers the same message, and the server limits attempts.
 */
export default function BalancePage() {
  const { t } = useTranslation();
  const language = useLang();
  const [ready, setReady] = useState(language !== 'en');
  const [code, setCode] = useState('');
  const [vatNumber, setVatNumber] = useState('');
  useEffect(() => {
    if (language === 'en') void loadEnglish().then(() => setReady(true));
  }, [language]);
  useEffect(() => {
    document.title = t('paymentsUi.public.title');
  }, [t]);
  const lookup = useMutation({
    mutationFn: (body: BalanceLookup) => api.post<PublicBalance>('/api/public/balance', body),
    // The answer shows under the form; no snackbar besides.
    meta: { errorSnackbar: false },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    lookup.mutate({ code: code.trim(), vatNumber: vatNumber.trim() });
  };
  if (!ready) return null;
  const money = (value: string) => `${formatMoney(value, language)} €`;
  const result = lookup.data;
  return (
    <Container maxWidth="md" component="main" sx={{ py: 4 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 3 }}>
        <BrandMark />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t('paymentsUi.public.title')}
        </Typography>
      </Stack>
      <Paper variant="outlined" sx={{ p: 3 }} component="form" onSubmit={submit}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('paymentsUi.public.intro')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label={t('paymentsUi.public.code')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            size="small"
            slotProps={{ htmlInput: { 'data-testid': 'balance-code', autoComplete: 'off' } }}
          />
          <TextField
            label={t('paymentsUi.public.vatNumber')}
            value={vatNumber}
            onChange={(e) => setVatNumber(e.target.value)}
            required
            size="small"
            slotProps={{
              htmlInput: { 'data-testid': 'balance-vat', inputMode: 'numeric', autoComplete: 'off' },
            }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={lookup.isPending}
            data-testid="balance-submit"
            sx={{ flexShrink: 0, whiteSpace: 'nowrap', px: 3 }}
          >
            {t('paymentsUi.public.submit')}
          </Button>
        </Stack>
      </Paper>
      {lookup.isError && (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="balance-error">
          {errorMessage(t, lookup.error)}
        </Alert>
      )}
      {result && (
        <Paper variant="outlined" sx={{ mt: 2 }} data-testid="balance-result">
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.debts.description')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.debts.dueDate')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.debts.rf')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }} align="right">
                    {t('paymentsUi.debts.remaining')}
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {result.bills.map((bill) => (
                  <TableRow key={bill.rfCode}>
                    <TableCell>{bill.description}</TableCell>
                    <TableCell>{formatDate(bill.dueDate)}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                      {formatRf(bill.rfCode)}
                    </TableCell>
                    <TableCell align="right">{money(bill.remaining)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TableFooter>
                <TableRow>
                  <TableCell colSpan={3} sx={{ fontWeight: 600, color: 'text.primary' }}>
                    {t('paymentsUi.debts.total')}
                  </TableCell>
                  <TableCell
                    align="right"
                    sx={{ fontWeight: 700, color: 'text.primary' }}
                    data-testid="balance-due"
                  >
                    {money(result.due)}
                  </TableCell>
                </TableRow>
              </TableFooter>
            </Table>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {t('paymentsUi.public.rfHint')}
          </Typography>
        </Paper>
      )}
    </Container>
  );
}
