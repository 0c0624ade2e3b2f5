import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { type Debt, formatMoney, formatRf } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates.ts';
import { useLang } from '../../lib/language.tsx';

/** Open debts, oldest first: remaining, RF code and the overdue interest in a column of its own. */
export function DebtsTable({
  debts,
  due,
  interest,
  showInterest,
  selected,
  onToggle,
}: {
  debts: Debt[];
  due: string;
  interest: string;
  showInterest: boolean;
  selected?: number[];
  onToggle?: (id: number) => void;
}) {
  const { t } = useTranslation();
  const language = useLang();
  const money = (value: string) => formatMoney(value, language);
  return (
    <Table size="small" data-testid="payments-debts">
      <TableHead>
        <TableRow>
          {onToggle && <TableCell padding="checkbox" />}
          <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.debts.description')}</TableCell>
          <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.debts.dueDate')}</TableCell>
          <TableCell sx={{ fontWeight: 600 }}>{t('paymentsUi.debts.rf')}</TableCell>
          <TableCell sx={{ fontWeight: 600 }} align="right">
            {t('paymentsUi.debts.amount')}
          </TableCell>
          <TableCell sx={{ fontWeight: 600 }} align="right">
            {t('paymentsUi.debts.remaining')}
          </TableCell>
          {showInterest && (
            <TableCell sx={{ fontWeight: 600 }} align="right">
              {t('paymentsUi.debts.interest')}
            </TableCell>
          )}
        </TableRow>
      </TableHead>
      <TableBody>
        {debts.map((debt) => (
          <TableRow
            key={debt.id}
            hover={Boolean(onToggle)}
            onClick={onToggle ? () => onToggle(debt.id) : undefined}
            sx={onToggle ? { cursor: 'pointer' } : undefined}
          >
            {onToggle && (
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={selected?.includes(debt.id) ?? false}
                  slotProps={{ input: { 'aria-label': debt.description } }}
                />
              </TableCell>
            )}
            <TableCell>
              {t(`payments.entry.${debt.source}`)} {debt.description}
            </TableCell>
            <TableCell>{formatDate(debt.dueDate)}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
              {formatRf(debt.rfCode)}
            </TableCell>
            <TableCell align="right">{money(debt.amount)}</TableCell>
            <TableCell align="right">{money(debt.remaining)}</TableCell>
            {showInterest && <TableCell align="right">{money(debt.interest)}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
      <TableFooter>
        <TableRow>
          <TableCell colSpan={onToggle ? 5 : 4} sx={{ fontWeight: 600, color: 'text.primary' }}>
            {t('paymentsUi.debts.total')}
          </TableCell>
          <TableCell align="right" sx={{ fontWeight: 700, color: 'text.primary' }} data-testid="payments-due">
            {money(due)} €
          </TableCell>
          {showInterest && (
            <TableCell
              align="right"
              sx={{ color: 'text.secondary' }}
              title={t('paymentsUi.debts.interestApart')}
            >
              {money(interest)} €
            </TableCell>
          )}
        </TableRow>
      </TableFooter>
    </Table>
  );
}
