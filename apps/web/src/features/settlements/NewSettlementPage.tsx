import './i18n/index.ts';
import HandshakeOutlinedIcon from '@mui/icons-material/HandshakeOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  decimalText,
  type FieldError,
  formatMoney,
  moneyString,
  parseDecimal,
  type SettlementCategory,
  type SettlementPreviewRequest,
  settlementAmounts,
  sum,
} from '@protocol/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { CATEGORIES_PATH, settlementsApi } from './api.ts';
import { PlanTable } from './PlanTable.tsx';

/** A decimal typed in Greek or English writing, as the API wants it ("1234.5"); '' when not a number. */
const wire = (text: string) => decimalText(parseDecimal(text)) ?? '';

/**
 * /settlements/new?consumer=ID: the consumer's open debts to pick, the category, discount, down
 * payment and instalments; the plan is computed by the server as the save would, before saving.
 */
export default function NewSettlementPage() {
  const { t } = useTranslation();
  const language = useLang();
  const localize = useLocalize();
  const navigate = useNavigate();
  const notify = useNotify();
  const [params] = useSearchParams();
  const consumerId = Number(params.get('consumer'));
  useAppBar({ title: t('menu.settlements') });

  const debts = useQuery({
    queryKey: ['settlements', 'debts', consumerId],
    queryFn: ({ signal }) => settlementsApi.debts(consumerId, signal),
    enabled: consumerId > 0,
  });
  const categories = useQuery({
    queryKey: ['settlements', 'categories'],
    queryFn: ({ signal }) => api.get<SettlementCategory[]>(CATEGORIES_PATH, { signal }),
    select: (rows) => rows.filter((c) => c.active),
  });
  const [picked, setPicked] = useState<number[]>([]);
  const [categoryId, setCategoryId] = useState<number | ''>('');
  const [discount, setDiscount] = useState('0');
  const [down, setDown] = useState<string | null>(null);
  const [instalments, setInstalments] = useState('6');
  const [comments, setComments] = useState('');
  const category = categories.data?.find((c) => c.id === categoryId);

  // The least down payment the category allows (the plan's own rule), offered until the operator types one.
  const suggestedDown = useMemo(() => {
    const chosen = (debts.data ?? []).filter((d) => picked.includes(d.id));
    if (!category || chosen.length === 0) return '';
    const { minDown } = settlementAmounts(
      chosen.map((d) => d.remaining),
      moneyString(sum(chosen.map((d) => d.interest))),
      wire(discount) || '0',
      category,
    );
    return moneyString(minDown);
  }, [debts.data, picked, category, discount]);
  const downText = down ?? (suggestedDown ? formatMoney(suggestedDown, language) : '');

  const request: SettlementPreviewRequest | null =
    picked.length > 0 && category && wire(downText) && Number(instalments) > 0
      ? {
          consumerId,
          categoryId: category.id,
          debtIds: picked,
          discountPercent: wire(discount) || '0',
          downPayment: wire(downText),
          instalments: Number(instalments),
        }
      : null;
  const preview = useQuery({
    queryKey: ['settlements', 'preview', request],
    queryFn: ({ signal }) => settlementsApi.preview(request as SettlementPreviewRequest, signal),
    enabled: request !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const fieldErrors: FieldError[] = isApiError(preview.error) ? preview.error.fieldErrors : [];
  const errorOf = (field: string) => {
    const error = fieldErrors.find((e) => e.field === field);
    return error ? t(error.key, error.params) : undefined;
  };
  const save = useMutation({
    mutationFn: () =>
      settlementsApi.create({ ...(request as SettlementPreviewRequest), comments: comments || null }),
    onSuccess: (created) => {
      notify(t('settlementsUi.create.saved', { number: `${created.nr}/${created.year}` }), 'success');
      navigate(localize(`/settlements/${created.id}`));
    },
    onError: (error) => notify(errorMessage(t, error), 'error'),
  });

  if (debts.isError) return <RetryAlert error={debts.error} onRetry={() => void debts.refetch()} />;
  const money = (value: string) => formatMoney(value, language);
  const toggle = (id: number) =>
    setPicked((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]));
  const planReady = preview.data && !preview.isError && request !== null;
  return (
    <>
      <PageHeader
        title={t('settlementsUi.create.title')}
        subtitle={t('settlementsUi.create.subtitle')}
        avatar={<HandshakeOutlinedIcon />}
        testId="settlement-new-header"
      />
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Stack spacing={2} sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          <Paper variant="outlined">
            <Typography variant="h2" sx={{ fontSize: '1.05rem', p: 2, pb: 1 }}>
              {t('settlementsUi.create.debts')}
            </Typography>
            {debts.data && debts.data.length === 0 ? (
              <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
                {t('settlementsUi.create.noDebts')}
              </Typography>
            ) : (
              <Table size="small" data-testid="settlement-debts">
                <TableHead>
                  <TableRow>
                    <TableCell padding="checkbox" />
                    <TableCell>{t('settlementsUi.create.description')}</TableCell>
                    <TableCell>{t('settlementsUi.create.dueDate')}</TableCell>
                    <TableCell align="right">{t('settlementsUi.create.remaining')}</TableCell>
                    <TableCell align="right">{t('settlementsUi.create.interest')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {(debts.data ?? []).map((debt) => (
                    <TableRow key={debt.id} hover onClick={() => toggle(debt.id)} sx={{ cursor: 'pointer' }}>
                      <TableCell padding="checkbox">
                        <Checkbox
                          size="small"
                          checked={picked.includes(debt.id)}
                          slotProps={{ input: { 'aria-label': debt.description } }}
                          data-testid={`debt-${debt.id}`}
                        />
                      </TableCell>
                      <TableCell>{debt.description}</TableCell>
                      <TableCell>{formatDate(debt.dueDate)}</TableCell>
                      <TableCell align="right">{money(debt.remaining)}</TableCell>
                      <TableCell align="right">{money(debt.interest)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </Paper>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <TextField
                select
                size="small"
                label={t('settlementsUi.create.category')}
                value={categoryId}
                onChange={(e) => setCategoryId(Number(e.target.value))}
                sx={{ width: 280 }}
                error={Boolean(errorOf('categoryId'))}
                helperText={
                  errorOf('categoryId') ??
                  (category &&
                    t('settlementsUi.create.categoryHint', {
                      min: money(category.minInstalment),
                      max: money(category.maxInstalment),
                      count: category.maxInstalments,
                      percent: formatMoney(category.minDownPaymentPercent, language),
                    }))
                }
                slotProps={{ htmlInput: { 'data-testid': 'settlement-category' } }}
              >
                {(categories.data ?? []).map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.description}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                size="small"
                label={t('settlementsUi.create.discountPercent')}
                value={discount}
                onChange={(e) => setDiscount(e.target.value)}
                error={Boolean(errorOf('discountPercent'))}
                helperText={errorOf('discountPercent')}
                slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'settlement-discount' } }}
                sx={{ width: 140 }}
              />
              <TextField
                size="small"
                label={t('settlementsUi.create.downPayment')}
                value={downText}
                onChange={(e) => setDown(e.target.value)}
                error={Boolean(errorOf('downPayment'))}
                helperText={errorOf('downPayment')}
                slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'settlement-down' } }}
                sx={{ width: 190 }}
              />
              <TextField
                size="small"
                type="number"
                label={t('settlementsUi.create.instalments')}
                value={instalments}
                onChange={(e) => setInstalments(e.target.value)}
                error={Boolean(errorOf('instalments'))}
                helperText={errorOf('instalments')}
                slotProps={{ htmlInput: { min: 1, max: 120, 'data-testid': 'settlement-instalments' } }}
                sx={{ width: 140 }}
              />
            </Stack>
            <TextField
              size="small"
              fullWidth
              multiline
              minRows={2}
              label={t('settlementsUi.create.comments')}
              value={comments}
              onChange={(e) => setComments(e.target.value)}
              sx={{ mt: 2 }}
            />
          </Paper>
        </Stack>
        <Paper variant="outlined" sx={{ width: { xs: '100%', lg: 460 }, flexShrink: 0 }}>
          <Typography variant="h2" sx={{ fontSize: '1.05rem', p: 2, pb: 1 }}>
            {t('settlementsUi.create.plan')}
          </Typography>
          {fieldErrors.length > 0 && (
            <Alert severity="error" sx={{ mx: 2, mb: 1 }} data-testid="settlement-plan-error">
              {fieldErrors.map((e) => t(e.key, e.params)).join(' · ')}
            </Alert>
          )}
          {preview.isError && fieldErrors.length === 0 && (
            <Alert severity="error" sx={{ mx: 2, mb: 1 }}>
              {errorMessage(t, preview.error)}
            </Alert>
          )}
          {planReady ? (
            <PlanTable plan={preview.data} />
          ) : (
            <Typography color="text.secondary" sx={{ p: 2 }}>
              {t('settlementsUi.create.planHint')}
            </Typography>
          )}
          <Stack direction="row" sx={{ p: 2, justifyContent: 'flex-end' }}>
            <Button
              variant="contained"
              disabled={!planReady || preview.isFetching || save.isPending}
              onClick={() => save.mutate()}
              data-testid="settlement-save"
            >
              {t('settlementsUi.create.save')}
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}
