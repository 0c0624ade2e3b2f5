import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type BankLine, type BankLineStatus, formatMoney, formatRf } from '@protocol/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../../app/language.tsx';
import { formatDate } from '../../../lib/dates.ts';

export const statusColor: Record<BankLineStatus, 'success' | 'secondary' | 'error' | 'primary' | 'default'> =
  {
    matched: 'success',
    partly: 'secondary',
    unmatched: 'error',
    manual: 'primary',
    invalid: 'error',
    duplicate: 'default',
  };

export function StatusChip({ status }: { status: BankLineStatus }) {
  const { t } = useTranslation();
  return (
    <Chip size="small" variant="outlined" color={statusColor[status]} label={t(`bank.status.${status}`)} />
  );
}

/** Lines of bank files: what the bank sent, what became of it and why, and the receipt it made. */
export function BankLinesTable({
  lines,
  showFile = false,
  action,
  testId,
}: {
  lines: BankLine[];
  showFile?: boolean;
  action?: (line: BankLine) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const language = useLang();
  const money = (value: string | null) => (value === null ? '' : formatMoney(value, language));
  const head = (key: string, align?: 'right') => (
    <TableCell sx={{ fontWeight: 600, whiteSpace: 'nowrap' }} align={align}>
      {t(key)}
    </TableCell>
  );
  return (
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('bankUi.import.lines')}>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            {showFile ? head('bankUi.unmatched.file') : head('bankUi.report.line')}
            {head('bankUi.report.reference')}
            {head('bankUi.report.date')}
            {head('bankUi.report.rf')}
            {head('bankUi.report.amount', 'right')}
            {head('bankUi.report.payer')}
            {head('bankUi.report.status')}
            {head('bankUi.report.reason')}
            {!action && head('bankUi.report.consumer')}
            {!action && head('bankUi.report.receipt')}
            {!action && head('bankUi.report.credit', 'right')}
            {action && <TableCell />}
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.id} data-testid="bank-line" data-status={line.status}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {showFile ? `${line.fileName} · ${line.lineNo}` : line.lineNo}
              </TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{line.bankReference}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{line.date ? formatDate(line.date) : ''}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                {line.rfCode ? formatRf(line.rfCode) : ''}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {money(line.amount)}
              </TableCell>
              <TableCell>{line.payer}</TableCell>
              <TableCell>
                <StatusChip status={line.status} />
              </TableCell>
              <TableCell sx={{ minWidth: 140, maxWidth: 300 }}>
                {line.reason ? t(`bank.reason.${line.reason}`) : ''}
                {line.status === 'invalid' && (
                  <Typography
                    variant="caption"
                    component="div"
                    color="text.secondary"
                    sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                  >
                    {line.raw}
                  </Typography>
                )}
              </TableCell>
              {!action && (
                <TableCell>
                  {line.consumerCode
                    ? `${line.consumerCode.replace(/ +/g, ' ')} · ${line.ownerName ?? ''}`
                    : ''}
                </TableCell>
              )}
              {!action && <TableCell>{line.receipt}</TableCell>}
              {!action && (
                <TableCell align="right">
                  {line.credit && line.credit !== '0.00' ? money(line.credit) : ''}
                </TableCell>
              )}
              {action && <TableCell align="right">{action(line)}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
