import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { Decimal, formatMoney, formatRf, type Plan, type SettlementInstalment } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates.ts';
import { useLang } from '../../lib/language.tsx';

const STATE_COLOR = { open: 'default', paid: 'success', missed: 'warning', cancelled: 'error' } as const;

/** A settlement's status (0 pending, 1 active, 9 cancelled) as a chip. */
export function StatusChip({ status }: { status: number }) {
  const { t } = useTranslation();
  const color = status === 1 ? 'success' : status === 9 ? 'error' : 'warning';
  return (
    <Chip
      size="small"
      color={color}
      label={t(`settlements.status_${status}`)}
      data-testid="settlement-status"
    />
  );
}

/**
 * The down payment and instalments: the plan before saving (amounts and due dates), or a saved
 * settlement's lines with their RF codes, what is paid and their state.
 */
export function PlanTable({ plan, lines }: { plan?: Plan; lines?: SettlementInstalment[] }) {
  const { t } = useTranslation();
  const language = useLang();
  const money = (value: string) => formatMoney(value, language);
  const rows = lines ?? plan?.lines.map((l) => ({ ...l, paid: null, rfCode: null, state: null })) ?? [];
  const saved = lines !== undefined;
  return (
    <Table size="small" data-testid="settlement-plan">
      <TableHead>
        <TableRow>
          <TableCell>{t('settlementsUi.plan.number')}</TableCell>
          <TableCell>{t('settlementsUi.plan.dueDate')}</TableCell>
          <TableCell align="right">{t('settlementsUi.plan.amount')}</TableCell>
          {saved && <TableCell align="right">{t('settlementsUi.plan.paid')}</TableCell>}
          {saved && <TableCell>{t('settlementsUi.plan.rf')}</TableCell>}
          {saved && <TableCell>{t('settlementsUi.plan.state')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.number} data-testid={`plan-line-${row.number}`}>
            <TableCell>{row.number === 0 ? t('settlementsUi.plan.downPayment') : row.number}</TableCell>
            <TableCell>{formatDate(row.dueDate)}</TableCell>
            <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {money(row.amount)}
            </TableCell>
            {saved && (
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {money(row.paid ?? '0')}
              </TableCell>
            )}
            {saved && (
              <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.8rem', whiteSpace: 'nowrap' }}>
                {formatRf(row.rfCode ?? '')}
              </TableCell>
            )}
            {saved && row.state && (
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={STATE_COLOR[row.state]}
                  label={t(`settlementsUi.state.${row.state}`)}
                />
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
      {plan && (
        <TableFooter>
          {(
            [
              ['debtsTotal', plan.debtsTotal],
              ['interest', plan.interest],
              [
                'discount',
                new Decimal(plan.discount).isZero() ? money(plan.discount) : `−${money(plan.discount)}`,
              ],
              ['total', plan.total],
            ] as const
          ).map(([key, value]) => (
            <TableRow key={key}>
              <TableCell colSpan={2} align="right" sx={{ fontWeight: key === 'total' ? 700 : 400 }}>
                {t(`settlementsUi.plan.${key}`)}
              </TableCell>
              <TableCell
                align="right"
                sx={{ fontWeight: key === 'total' ? 700 : 400 }}
                data-testid={`plan-${key}`}
              >
                {key === 'discount' ? value : money(value)}
              </TableCell>
              {saved && <TableCell colSpan={3} />}
            </TableRow>
          ))}
        </TableFooter>
      )}
    </Table>
  );
}
