import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { type ComputedBill, describeBillLine, formatDecimal, formatMoney } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates.ts';
import { useLang } from '../../lib/language.tsx';

/**
 * A computed bill's lines, VAT per rate and total, as the "try it" panel and the corrected bill's
 * preview show them; `testId` prefixes the rows' and the total's test ids.
 */
export function BillLinesTable({ bill, testId }: { bill: ComputedBill; testId: string }) {
  const { t } = useTranslation();
  const language = useLang();
  const money = (value: string) => formatMoney(value, language);
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>{t('billingUi.try.line')}</TableCell>
          <TableCell align="right">{t('billingUi.try.quantity')}</TableCell>
          <TableCell align="right">{t('billingUi.try.price')}</TableCell>
          <TableCell align="right">{t('billingUi.try.vat')}</TableCell>
          <TableCell align="right">{t('billingUi.try.amount')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {bill.lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines have no id and never reorder
          <TableRow key={i} data-testid={`${testId}-line`}>
            <TableCell>{describeBillLine(line, (key, params) => t(key, params), formatDate)}</TableCell>
            <TableCell align="right">{line.quantity ? formatDecimal(line.quantity, language) : ''}</TableCell>
            <TableCell align="right">
              {line.price === null
                ? ''
                : line.quantity === null
                  ? `${formatDecimal(line.price, language)}%`
                  : formatDecimal(line.price, language, 2)}
            </TableCell>
            <TableCell align="right">
              {line.charge === 'previousBalance' ? '' : `${formatDecimal(line.vatPercent, language)}%`}
            </TableCell>
            <TableCell align="right">{money(line.amount)}</TableCell>
          </TableRow>
        ))}
        {bill.vat.map((v) => (
          <TableRow key={v.vatPercent}>
            <TableCell colSpan={4} sx={{ color: 'text.secondary' }}>
              {t('billingUi.try.vatLine', { rate: formatDecimal(v.vatPercent, language), net: money(v.net) })}
            </TableCell>
            <TableCell align="right">{money(v.vat)}</TableCell>
          </TableRow>
        ))}
        <TableRow>
          <TableCell colSpan={4} sx={{ fontWeight: 700 }}>
            {t('billingUi.try.total')}
          </TableCell>
          <TableCell align="right" sx={{ fontWeight: 700 }} data-testid={`${testId}-total`}>
            {money(bill.total)} €
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}
