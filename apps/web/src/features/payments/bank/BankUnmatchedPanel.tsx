import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type BankLine, type ConsumerDebts, formatMoney, writtenCode } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../components/Notifier.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useLang } from '../../../lib/language.tsx';
import { usePermission } from '../../../lib/permissions.ts';
import { paymentsApi } from '../api.ts';
import { DebtsTable } from '../DebtsTable.tsx';
import { BankLinesTable } from './BankLines.tsx';
import { bankApi } from './bankApi.ts';

/** The lines of every bank file that no RF matched, each matched by hand to a consumer's debts. */
export function BankUnmatchedPanel() {
  const { t } = useTranslation();
  const writable = usePermission('payments:write');
  const [matching, setMatching] = useState<BankLine | null>(null);
  const waiting = useQuery({
    queryKey: ['bank', 'unmatched'],
    queryFn: ({ signal }) => bankApi.unmatched(signal),
  });
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="bank-unmatched">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('bankUi.unmatched.help')}
      </Typography>
      {waiting.isError && <Alert severity="error">{errorMessage(t, waiting.error)}</Alert>}
      {waiting.data?.count === 0 && (
        <Alert severity="success" data-testid="bank-unmatched-none">
          {t('bankUi.unmatched.none')}
        </Alert>
      )}
      {(waiting.data?.count ?? 0) > 0 && (
        <BankLinesTable
          lines={waiting.data?.lines ?? []}
          showFile
          testId="bank-unmatched-lines"
          action={(line) => (
            <Button
              size="small"
              variant="outlined"
              disabled={!writable}
              onClick={() => setMatching(line)}
              data-testid="bank-match"
            >
              {t('bankUi.unmatched.match')}
            </Button>
          )}
        />
      )}
      {matching && <MatchDialog line={matching} onClose={() => setMatching(null)} />}
    </Paper>
  );
}

function MatchDialog({ line, onClose }: { line: BankLine; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [text, setText] = useState(line.payer ?? '');
  const [asked, setAsked] = useState('');
  const found = useQuery({
    queryKey: ['payments', 'debts', asked],
    queryFn: ({ signal }) => paymentsApi.findDebts(asked, signal),
    enabled: asked.length >= 2,
    retry: false,
  });
  const match = useMutation({
    mutationFn: (body: { consumerId: number; debtIds: number[] }) => bankApi.match(line.id, body),
    onSuccess: (matched) => {
      notify(t('bankUi.unmatched.done', { receipt: matched.receipt ?? '' }), 'success');
      void queryClient.invalidateQueries({ queryKey: ['bank'] });
      void queryClient.invalidateQueries({ queryKey: ['payments'] });
      onClose();
    },
    onError: (error) => notify(errorMessage(t, error), 'error'),
  });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setAsked(text.trim());
  };
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="bank-match-dialog">
      <DialogTitle>
        {t('bankUi.unmatched.dialogTitle', {
          amount: formatMoney(line.amount ?? '0', language),
          reference: line.bankReference ?? '',
        })}
      </DialogTitle>
      <DialogContent>
        <Stack direction="row" spacing={1} component="form" onSubmit={search} sx={{ mt: 1, mb: 2 }}>
          <TextField
            label={t('bankUi.unmatched.search')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            size="small"
            fullWidth
            autoFocus
            slotProps={{ htmlInput: { 'data-testid': 'bank-match-search' } }}
          />
          <Button type="submit" variant="contained" disabled={text.trim().length < 2}>
            {t('bankUi.unmatched.find')}
          </Button>
        </Stack>
        {found.isError && <Alert severity="info">{errorMessage(t, found.error)}</Alert>}
        <Stack spacing={2}>
          {found.data?.map((holder) => (
            <Holder
              key={holder.consumer.id}
              holder={holder}
              busy={match.isPending}
              onMatch={(debtIds) => match.mutate({ consumerId: holder.consumer.id, debtIds })}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('bankUi.unmatched.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function Holder({
  holder,
  busy,
  onMatch,
}: {
  holder: ConsumerDebts;
  busy: boolean;
  onMatch: (debtIds: number[]) => void;
}) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<number[]>([]);
  const { consumer } = holder;
  return (
    <Box
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
      data-testid="bank-match-consumer"
    >
      <Typography variant="subtitle2">
        {writtenCode(consumer.code)} · {consumer.ownerName}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }}>
        {[consumer.vatNumber, consumer.supplyAddress].filter(Boolean).join(' · ')}
      </Typography>
      {holder.debts.length > 0 && (
        <>
          <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }}>
            {t('bankUi.unmatched.choose')}
          </Typography>
          <DebtsTable
            debts={holder.debts}
            due={holder.due}
            interest={holder.interest}
            showInterest={false}
            selected={selected}
            onToggle={(id) =>
              setSelected((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]))
            }
          />
        </>
      )}
      <Button
        sx={{ mt: 1 }}
        variant="contained"
        size="small"
        disabled={busy}
        onClick={() => onMatch(selected)}
        data-testid="bank-match-pick"
      >
        {t('bankUi.unmatched.pick')}
      </Button>
    </Box>
  );
}
