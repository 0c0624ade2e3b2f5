import AddIcon from '@mui/icons-material/Add';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  type ConsumerTransaction,
  formatMoney,
  lifecycleKinds,
  type MeterInstallation,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api } from '../../lib/api.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useLang } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { consumerKey } from './consumersApi.ts';
import { MeterDialog, type MeterDialogMode } from './MeterDialog.tsx';

function useConsumerPart<T>(id: number, part: 'meters' | 'transactions') {
  return useQuery({
    queryKey: [...consumerKey(id), part],
    queryFn: ({ signal }) => api.get<T[]>(`/api/protocol/consumers/${id}/${part}`, { signal }),
  });
}

function Empty({ text }: { text: string }) {
  return (
    <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
      {text}
    </Typography>
  );
}

/** The consumer's meter now and before, with the install and swap actions. */
export function MetersTab({ consumerId }: { consumerId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const meters = useConsumerPart<MeterInstallation>(consumerId, 'meters');
  const [dialog, setDialog] = useState<{ mode: MeterDialogMode; kind?: number } | null>(null);
  if (meters.isError) return <RetryAlert error={meters.error} onRetry={() => void meters.refetch()} />;
  const current = meters.data?.find((m) => m.removedOn === null) ?? null;
  return (
    <Paper variant="outlined" data-testid="consumer-meters">
      <Stack direction="row" spacing={2} sx={{ p: 2, alignItems: 'center' }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h2" sx={{ fontSize: '1.05rem' }}>
            {t('waterUi.meters.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {current
              ? t('waterUi.meters.current', { serial: current.serialNumber, reading: current.lastReading })
              : t('waterUi.meters.none')}
          </Typography>
        </Box>
        {can('consumers:write') &&
          (current ? (
            <Button
              variant="contained"
              startIcon={<SwapHorizIcon />}
              onClick={() => setDialog({ mode: 'transaction', kind: lifecycleKinds.meterReplacement })}
              data-testid="meter-swap"
            >
              {t('waterUi.meters.swap')}
            </Button>
          ) : (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => setDialog({ mode: 'install' })}
              data-testid="meter-install"
            >
              {t('waterUi.meters.install')}
            </Button>
          ))}
      </Stack>
      {meters.data && meters.data.length > 0 ? (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('waterUi.meters.serialNumber')}</TableCell>
              <TableCell>{t('waterUi.meters.meterType')}</TableCell>
              <TableCell>{t('waterUi.meters.meterKind')}</TableCell>
              <TableCell>{t('waterUi.meters.digits')}</TableCell>
              <TableCell>{t('waterUi.meters.installedOn')}</TableCell>
              <TableCell align="right">{t('waterUi.meters.initialReading')}</TableCell>
              <TableCell>{t('waterUi.meters.removedOn')}</TableCell>
              <TableCell align="right">{t('waterUi.meters.finalReading')}</TableCell>
              <TableCell align="right">{t('waterUi.meters.lastReading')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {meters.data.map((m) => (
              <TableRow key={m.id} data-testid="meter-row">
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <span>{m.serialNumber}</span>
                    {m.removedOn === null && (
                      <Chip size="small" color="success" label={t('waterUi.meters.on')} />
                    )}
                  </Stack>
                </TableCell>
                <TableCell>{m.meterType ?? '—'}</TableCell>
                <TableCell>{t(`water.meterKind_${m.kind}`)}</TableCell>
                <TableCell>{m.digits}</TableCell>
                <TableCell>{formatDate(m.installedOn)}</TableCell>
                <TableCell align="right">{m.initialReading}</TableCell>
                <TableCell>{m.removedOn ? formatDate(m.removedOn) : '—'}</TableCell>
                <TableCell align="right">{m.finalReading ?? '—'}</TableCell>
                <TableCell align="right">{m.lastReading}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        meters.data && <Empty text={t('waterUi.meters.noHistory')} />
      )}
      {dialog && (
        <MeterDialog
          consumerId={consumerId}
          mode={dialog.mode}
          kind={dialog.kind}
          current={current}
          onClose={() => setDialog(null)}
        />
      )}
    </Paper>
  );
}

/** The consumer's timeline: lifecycle transactions and the extra charges they brought. */
export function TransactionsTab({ consumerId }: { consumerId: number }) {
  const { t } = useTranslation();
  const language = useLang();
  const can = useCan();
  const transactions = useConsumerPart<ConsumerTransaction>(consumerId, 'transactions');
  const meters = useConsumerPart<MeterInstallation>(consumerId, 'meters');
  const [open, setOpen] = useState(false);
  if (transactions.isError)
    return <RetryAlert error={transactions.error} onRetry={() => void transactions.refetch()} />;
  const current = meters.data?.find((m) => m.removedOn === null) ?? null;
  return (
    <Paper variant="outlined" data-testid="consumer-transactions">
      <Stack direction="row" spacing={2} sx={{ p: 2, alignItems: 'center' }}>
        <Typography variant="h2" sx={{ fontSize: '1.05rem', flex: 1 }}>
          {t('waterUi.meters.timeline')}
        </Typography>
        {can('consumers:write') && (
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setOpen(true)}
            data-testid="transaction-new"
          >
            {t('waterUi.meters.newTransaction')}
          </Button>
        )}
      </Stack>
      {transactions.data && transactions.data.length > 0 ? (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('waterUi.meters.date')}</TableCell>
              <TableCell>{t('waterUi.meters.kind')}</TableCell>
              <TableCell>{t('waterUi.meters.meter')}</TableCell>
              <TableCell align="right">{t('waterUi.meters.reading')}</TableCell>
              <TableCell align="right">{t('waterUi.meters.amount')}</TableCell>
              <TableCell>{t('waterUi.meters.comments')}</TableCell>
              <TableCell>{t('waterUi.meters.by')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {transactions.data.map((x) => (
              <TableRow key={x.id} data-testid={`transaction-row-${x.kind}`}>
                <TableCell>{formatDate(x.date)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant={x.kind === 5 ? 'outlined' : 'filled'}
                    label={t(`water.transactionKind_${x.kind}`)}
                  />
                </TableCell>
                <TableCell>
                  {x.newSerialNumber ? `${x.serialNumber} → ${x.newSerialNumber}` : (x.serialNumber ?? '—')}
                </TableCell>
                <TableCell align="right">
                  {x.reading ?? '—'}
                  {x.newReading !== null && ` / ${x.newReading}`}
                  {x.swapConsumption !== null && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t('waterUi.meters.acrossSwap', { m3: x.swapConsumption })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right">{x.amount ? `${formatMoney(x.amount, language)} €` : ''}</TableCell>
                <TableCell>{x.comments ?? ''}</TableCell>
                <TableCell>
                  <Typography variant="body2">{x.createuser}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {formatDateTime(x.createdate)}
                  </Typography>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        transactions.data && <Empty text={t('waterUi.meters.noTransactions')} />
      )}
      {open && (
        <MeterDialog
          consumerId={consumerId}
          mode="transaction"
          current={current}
          onClose={() => setOpen(false)}
        />
      )}
    </Paper>
  );
}
