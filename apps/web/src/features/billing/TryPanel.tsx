import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type ComputedBill,
  type ConsumerListItem,
  formatDecimal,
  type Page,
  parseDecimal,
  writtenCode,
} from '@protocol/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wireDate } from '../../components/form/dates.ts';
import { Section } from '../../components/form/fields.tsx';
import { OutlinedField } from '../../components/form/OutlinedField.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';
import { billingApi, CONSUMERS_SEARCH_URL } from './api.ts';
import { BillLinesTable } from './BillLinesTable.tsx';

/** The consumers whose code or owner matches what is typed (the consumers list's quick search). */
function useConsumerOptions(text: string) {
  const query = useQuery({
    queryKey: ['billing', 'consumers', text],
    queryFn: ({ signal }) =>
      api.get<Page<ConsumerListItem>>(`${CONSUMERS_SEARCH_URL}?size=20&search=${encodeURIComponent(text)}`, {
        signal,
      }),
    enabled: text.trim().length >= 2,
    staleTime: 30_000,
  });
  return query.data?.content ?? [];
}

/**
 * "Try it": a consumer, a period and a consumption give the bill's lines, VAT and total, computed by
 * the server exactly as a stored bill (POST /api/billing/try), stored nowhere.
 */
export function TryPanel() {
  const { t } = useTranslation();
  const language = useLang();
  const [text, setText] = useState('');
  const [consumer, setConsumer] = useState<ConsumerListItem | null>(null);
  const [from, setFrom] = useState('01/01/2026');
  const [to, setTo] = useState('30/04/2026');
  const [consumption, setConsumption] = useState('25');
  const options = useConsumerOptions(text);
  const compute = useMutation({
    mutationFn: () =>
      billingApi.tryBill({
        consumerId: consumer?.id ?? 0,
        from: wireDate(from) ?? '',
        to: wireDate(to) ?? '',
        consumption: parseDecimal(consumption)?.toString() ?? consumption.trim(),
      }),
    meta: { errorSnackbar: false },
  });
  const bill: ComputedBill | undefined = compute.data;
  return (
    <Section title={t('billingUi.try.title')} hint={t('billingUi.try.hint')}>
      <Box data-testid="billing-try">
        <Grid container spacing={2} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 12, md: 5 }}>
            <Autocomplete
              options={options}
              value={consumer}
              onChange={(_, value) => setConsumer(value)}
              inputValue={text}
              onInputChange={(_, value) => setText(value)}
              filterOptions={(all) => all}
              getOptionLabel={(c) => `${writtenCode(c.code)} · ${c.ownerName ?? ''}`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  label={t('billingUi.try.consumer')}
                  placeholder={t('billingUi.try.consumerHint')}
                  slotProps={{
                    ...params.slotProps,
                    htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'billing-try-consumer' },
                  }}
                />
              )}
            />
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <OutlinedField
              name="from"
              label={t('billingUi.try.from')}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              testId="billing-try-from"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 2 }}>
            <OutlinedField
              name="to"
              label={t('billingUi.try.to')}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              testId="billing-try-to"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 1.5 }}>
            <OutlinedField
              name="consumption"
              label={t('billingUi.try.consumption')}
              value={consumption}
              onChange={(e) => setConsumption(e.target.value)}
              testId="billing-try-consumption"
            />
          </Grid>
          <Grid size={{ xs: 6, md: 1.5 }}>
            <Button
              variant="contained"
              fullWidth
              onClick={() => compute.mutate()}
              disabled={!consumer || compute.isPending}
              data-testid="billing-try-compute"
            >
              {t('billingUi.try.compute')}
            </Button>
          </Grid>
        </Grid>
        {compute.error && (
          <Alert severity="warning" sx={{ mt: 2 }} data-testid="billing-try-error">
            {errorMessage(t, compute.error)}
          </Alert>
        )}
        {bill && (
          <Box sx={{ mt: 2 }} data-testid="billing-try-result">
            {bill.billedConsumption !== bill.consumption && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {t('billingUi.try.billed', { billed: formatDecimal(bill.billedConsumption, language) })}
              </Typography>
            )}
            <BillLinesTable bill={bill} testId="billing-try" />
          </Box>
        )}
      </Box>
    </Section>
  );
}
