import './i18n/index.ts';
import BlockOutlinedIcon from '@mui/icons-material/BlockOutlined';
import HandshakeOutlinedIcon from '@mui/icons-material/HandshakeOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatMoney, type Settlement, writtenCode } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { openSettlementPdf, settlementsApi } from './api.ts';
import { PlanTable, StatusChip } from './PlanTable.tsx';

/** /settlements/:id: a settlement, the debts it closed and its instalments with their state. */
export default function SettlementPage() {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const can = useCan();
  const queryClient = useQueryClient();
  const id = Number(useParams().id);
  const [confirm, confirmDialog] = useConfirm();
  useAppBar({ title: t('menu.settlements') });
  const key = ['settlements', 'one', id];
  const settlement = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => settlementsApi.one(id, signal),
  });
  const cancel = useMutation({
    mutationFn: () => settlementsApi.cancel(id),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      notify(t('settlementsUi.page.cancelled'), 'success');
    },
    onError: (error) => notify(errorMessage(t, error), 'error'),
  });
  if (settlement.isError)
    return <RetryAlert error={settlement.error} onRetry={() => void settlement.refetch()} />;
  if (!settlement.data) return <Skeleton variant="rounded" height={420} />;
  const s: Settlement = settlement.data;
  const number = `${s.nr}/${s.year}`;
  const money = (value: string) => formatMoney(value, language);
  const fields: [string, string][] = [
    [t('settlementsUi.page.consumer'), `${writtenCode(s.consumerCode)} · ${s.consumerName ?? ''}`],
    [t('settlementsUi.page.date'), formatDate(s.date)],
    [t('settlementsUi.page.category'), s.categoryDescription],
    ...(s.activatedAt
      ? [[t('settlementsUi.page.activatedAt'), formatDateTime(s.activatedAt)] as [string, string]]
      : []),
    ...(s.cancelledAt
      ? [[t('settlementsUi.page.cancelledAt'), formatDateTime(s.cancelledAt)] as [string, string]]
      : []),
  ];
  const onCancel = async () => {
    const ok = await confirm({
      title: t('settlementsUi.page.cancel'),
      message: t('settlementsUi.page.cancelConfirm', { number }),
      danger: true,
    });
    if (ok) cancel.mutate();
  };
  return (
    <>
      <PageHeader
        title={t('settlementsUi.page.title', { number })}
        subtitle={<StatusChip status={s.status} />}
        avatar={<HandshakeOutlinedIcon />}
        testId="settlement-header"
        actions={
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<PictureAsPdfOutlinedIcon />}
              onClick={() =>
                void openSettlementPdf(id, language).catch(() =>
                  notify(t('settlementsUi.page.pdfError'), 'error'),
                )
              }
              data-testid="settlement-pdf"
            >
              {t('settlementsUi.page.pdf')}
            </Button>
            {can('settlements:admin') && s.status !== 9 && (
              <Button
                color="error"
                variant="outlined"
                startIcon={<BlockOutlinedIcon />}
                disabled={cancel.isPending}
                onClick={() => void onCancel()}
                data-testid="settlement-cancel"
              >
                {t('settlementsUi.page.cancel')}
              </Button>
            )}
          </Stack>
        }
      />
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Stack spacing={2} sx={{ width: { xs: '100%', lg: 360 }, flexShrink: 0 }}>
          <Paper variant="outlined">
            <Table size="small">
              <TableBody>
                {fields.map(([label, value]) => (
                  <TableRow key={label}>
                    <TableCell sx={{ color: 'text.secondary', width: 140 }}>{label}</TableCell>
                    <TableCell>{value}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
          <Paper variant="outlined">
            <Typography variant="h2" sx={{ fontSize: '1.05rem', p: 2, pb: 1 }}>
              {t('settlementsUi.page.debts')}
            </Typography>
            <Table size="small">
              <TableBody>
                {s.debts.map((d) => (
                  <TableRow key={d.id}>
                    <TableCell>{d.description}</TableCell>
                    <TableCell>{formatDate(d.dueDate)}</TableCell>
                    <TableCell align="right">{money(d.remaining)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
        </Stack>
        <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, width: '100%', overflowX: 'auto' }}>
          <Typography variant="h2" sx={{ fontSize: '1.05rem', p: 2, pb: 1 }}>
            {t('settlementsUi.page.instalments')}
          </Typography>
          <PlanTable
            lines={s.lines}
            plan={{
              debtsTotal: s.debtsTotal,
              interest: s.interest,
              discount: s.discount,
              total: s.amount,
              downPayment: s.downPayment,
              lines: [],
            }}
          />
        </Paper>
      </Stack>
      {confirmDialog}
    </>
  );
}
