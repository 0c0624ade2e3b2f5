import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type BankLine, type BankLineStatus, formatMoney, formatRf, writtenCode } from '@protocol/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates.ts';
import { useLang } from '../../../lib/language.tsx';

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

/** A cell's main value with a second, smaller one under it (two columns' worth in one). */
function Stacked({ main, second, mono = false }: { main: ReactNode; second?: ReactNode; mono?: boolean }) {
  return (
    <>
      <Box component="span" sx={{ display: 'block', ...(mono ? monospace : {}) }}>
        {main}
      </Box>
      {second ? (
        <Typography variant="caption" component="span" color="text.secondary" sx={{ display: 'block' }}>
          {second}
        </Typography>
      ) : null}
    </>
  );
}
const monospace = { fontFamily: 'monospace', fontSize: '0.8125rem' } as const;

/**
 * Lines of bank files: what the bank sent, what became of it and why, and the receipt it made. Dense,
 * so a 1366 px screen shows every column without scrolling sideways: the related values share a
 * column (reference and date, RF and payer, result and reason, receipt and credit) and text wraps.
 */
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
  const head = (key: string, second?: string, align?: 'right') => (
    <TableCell sx={{ fontWeight: 600 }} align={align}>
      <Stacked main={t(key)} second={second ? t(second) : undefined} />
    </TableCell>
  );
  return (
    <Box
      sx={{ overflowX: 'auto' }}
      tabIndex={0}
      role="region"
      aria-label={t('bankUi.import.lines')}
      data-testid={`${testId}-region`}
    >
      <Table
        size="small"
        data-testid={testId}
        sx={{
          '& th, & td': { px: 1, verticalAlign: 'top' },
          '& th:first-of-type, & td:first-of-type': { pl: 0 },
        }}
      >
        <TableHead>
          <TableRow>
            {showFile ? head('bankUi.unmatched.file', 'bankUi.report.line') : head('bankUi.report.line')}
            {head('bankUi.report.reference', 'bankUi.report.date')}
            {head('bankUi.report.rf', 'bankUi.report.payer')}
            {head('bankUi.report.amount', undefined, 'right')}
            {head('bankUi.report.status', 'bankUi.report.reason')}
            {!action && head('bankUi.report.consumer')}
            {!action && head('bankUi.report.receipt', 'bankUi.report.credit')}
            {action && <TableCell />}
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.id} data-testid="bank-line" data-status={line.status}>
              <TableCell sx={showFile ? { maxWidth: 160, overflowWrap: 'anywhere' } : undefined}>
                {showFile ? <Stacked main={line.fileName} second={line.lineNo} /> : line.lineNo}
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 90 }}>
                <Stacked main={line.bankReference} second={line.date ? formatDate(line.date) : ''} mono />
              </TableCell>
              <TableCell sx={{ minWidth: 130 }}>
                <Stacked
                  main={
                    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                      {line.rfCode ? formatRf(line.rfCode) : ''}
                    </Box>
                  }
                  second={line.payer}
                  mono
                />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {money(line.amount)}
              </TableCell>
              <TableCell sx={{ minWidth: 150 }}>
                <StatusChip status={line.status} />
                {line.reason && (
                  <Typography variant="body2" component="div" sx={{ mt: 0.5 }}>
                    {t(`bank.reason.${line.reason}`)}
                  </Typography>
                )}
                {line.status === 'invalid' && (
                  <Typography
                    variant="caption"
                    component="div"
                    color="text.secondary"
                    sx={{ fontFamily: 'monospace', wordBreak: 'break-all', maxWidth: 260 }}
                  >
                    {line.raw}
                  </Typography>
                )}
              </TableCell>
              {!action && (
                <TableCell sx={{ minWidth: 110 }}>
                  {line.consumerCode && (
                    <Stacked
                      main={
                        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                          {writtenCode(line.consumerCode)}
                        </Box>
                      }
                      second={line.ownerName}
                    />
                  )}
                </TableCell>
              )}
              {!action && (
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Stacked
                    main={line.receipt}
                    second={
                      line.credit && line.credit !== '0.00'
                        ? t('bankUi.report.creditOf', { amount: money(line.credit) })
                        : undefined
                    }
                  />
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
