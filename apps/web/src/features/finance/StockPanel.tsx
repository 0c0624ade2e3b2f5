import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatDecimal, type StockRow } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.ts';
import { useLang } from '../../lib/language.tsx';

/** The stock per item and warehouse, read-only: it moves only through finalized documents. */
export function StockPanel() {
  const { t } = useTranslation();
  const lang = useLang();
  const path = '/api/finance/stock';
  const query = useQuery({ queryKey: ['financeStock', path], queryFn: () => api.get<StockRow[]>(path) });
  const rows = query.data ?? [];
  return (
    <Paper variant="outlined" sx={{ mt: 2, p: 2 }} data-testid="finance-stock">
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        {t('finance.items.stockTitle')}
      </Typography>
      {rows.length === 0 ? (
        <Alert severity="info">{t('finance.items.noStock')}</Alert>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('finance.items.code')}</TableCell>
              <TableCell>{t('finance.items.descr')}</TableCell>
              <TableCell>{t('finance.items.warehouse')}</TableCell>
              <TableCell align="right">{t('finance.items.quantity')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={`${row.itemId}-${row.warehouseId}`}>
                <TableCell>{row.code}</TableCell>
                <TableCell>{row.descr}</TableCell>
                <TableCell>{row.warehouseDescr}</TableCell>
                <TableCell align="right" data-testid={`stock-${row.code}`}>
                  {formatDecimal(row.quantity, lang)} {row.unit ?? ''}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
