import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
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
import { useNavigate } from 'react-router';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { formatDate } from '../../lib/dates.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { settlementsApi } from './api.ts';
import { StatusChip } from './PlanTable.tsx';

/** The consumer card's "Settlements" tab: the consumer's settlements and a new one from their debts. */
export default function ConsumerSettlementsTab({ consumerId }: { consumerId: number }) {
  const { t } = useTranslation();
  const language = useLang();
  const localize = useLocalize();
  const navigate = useNavigate();
  const can = useCan();
  const list = useQuery({
    queryKey: ['settlements', 'consumer', consumerId],
    queryFn: ({ signal }) => settlementsApi.ofConsumer(consumerId, signal),
  });
  if (list.isError) return <RetryAlert error={list.error} onRetry={() => void list.refetch()} />;
  const rows = list.data ?? [];
  return (
    <Paper variant="outlined" data-testid="consumer-settlements">
      <Stack direction="row" sx={{ p: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h2" sx={{ fontSize: '1.05rem' }}>
          {t('menu.settlements')}
        </Typography>
        {can('settlements:write') && (
          <Button
            variant="outlined"
            startIcon={<AddIcon />}
            onClick={() => navigate(localize(`/settlements/new?consumer=${consumerId}`))}
            data-testid="settlement-new"
          >
            {t('settlementsUi.tab.new')}
          </Button>
        )}
      </Stack>
      {!list.isPending && rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('settlementsUi.tab.empty')}
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('settlements.list.number')}</TableCell>
              <TableCell>{t('settlements.list.date')}</TableCell>
              <TableCell>{t('settlements.list.category')}</TableCell>
              <TableCell align="right">{t('settlements.list.amount')}</TableCell>
              <TableCell align="right">{t('settlements.list.installments')}</TableCell>
              <TableCell>{t('settlements.list.status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow
                key={row.id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => navigate(localize(`/settlements/${row.id}`))}
              >
                <TableCell>{row.number}</TableCell>
                <TableCell>{formatDate(row.date)}</TableCell>
                <TableCell>{row.category}</TableCell>
                <TableCell align="right">{formatMoney(row.amount, language)}</TableCell>
                <TableCell align="right">{row.installments}</TableCell>
                <TableCell>
                  <StatusChip status={row.status} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
