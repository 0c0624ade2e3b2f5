import './i18n/index.ts';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { periodName } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';

interface HistoryItem {
  id: number;
  year: number;
  period: number;
  months: number;
  reading: number | null;
  readOn: string;
  consumption: number | null;
  source: number;
  estimated: boolean;
  flags: string[];
  note: string | null;
  superseded: boolean;
  createuser: string | null;
}

/** The consumer card's "Readouts" tab: every reading, latest first, corrected ones struck through. */
export default function ConsumerReadoutsTab({ consumerId }: { consumerId: number }) {
  const { t, i18n } = useTranslation();
  const history = useQuery({
    queryKey: ['readouts', 'history', consumerId],
    queryFn: ({ signal }) =>
      api.get<HistoryItem[]>(`/api/readouts/consumers/${consumerId}/history`, {
        signal,
      }),
  });
  if (history.isError) return <RetryAlert error={history.error} onRetry={() => void history.refetch()} />;
  const items = history.data ?? [];
  const lang = i18n.language === 'en' ? 'en' : 'el';
  return (
    <Paper variant="outlined" data-testid="consumer-readouts">
      {!history.isPending && items.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t('readoutsUi.historyEmpty')}
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              {['period', 'date', 'reading', 'consumption', 'source', 'note', 'user'].map((c) => (
                <TableCell key={c} sx={{ fontWeight: 600 }}>
                  {t(`readoutsUi.history.${c}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow
                key={item.id}
                sx={
                  item.superseded
                    ? { '& td': { color: 'text.disabled', textDecoration: 'line-through' } }
                    : undefined
                }
              >
                <TableCell>{periodName(item.year, item.period, item.months, lang)}</TableCell>
                <TableCell>{formatDate(item.readOn)}</TableCell>
                <TableCell align="right">{item.reading ?? '—'}</TableCell>
                <TableCell align="right">
                  {item.consumption ?? ''}
                  {item.estimated && <Chip size="small" sx={{ ml: 1 }} label={t('readoutsUi.estimated')} />}
                </TableCell>
                <TableCell>{t(`readoutsUi.source_${item.source}`)}</TableCell>
                <TableCell>
                  {item.superseded ? t('readoutsUi.history.corrected') : ''}
                  {item.note ? ` ${item.note}` : ''}
                </TableCell>
                <TableCell>{item.createuser}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
