import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { formatDate } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { traderKey, traderLabel, tradersApi } from './api.ts';
import { mergeableTraderFields, type Trader } from './model.ts';

/** The fields compared when merging two traders (all but the bank accounts, which the survivor gathers). */
export const MERGE_FIELDS = mergeableTraderFields;
type MergeField = (typeof MERGE_FIELDS)[number];
type Side = 'survivor' | 'merged';

function show(t: (key: string) => string, field: MergeField, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
  if (field === 'birthday') return formatDate(String(value));
  if (field === 'status') return t(`traders.status.${value}`);
  return String(value);
}

interface Props {
  open: boolean;
  ids: [number, number];
  onClose: () => void;
  onMerged: (survivor: Trader) => void;
}

/** Two traders into one: pick the surviving record, then per differing field the value it keeps. */
export function MergeDialog({ open, ids, onClose, onMerged }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const titleId = useId();
  const first = useQuery({
    queryKey: traderKey(ids[0]),
    queryFn: ({ signal }) => tradersApi.get(ids[0], signal),
  });
  const second = useQuery({
    queryKey: traderKey(ids[1]),
    queryFn: ({ signal }) => tradersApi.get(ids[1], signal),
  });
  const [survivorIndex, setSurvivorIndex] = useState<0 | 1>(0);
  const [choices, setChoices] = useState<Partial<Record<MergeField, Side>>>({});

  const pair = first.data && second.data ? ([first.data, second.data] as const) : null;
  const survivor = pair?.[survivorIndex];
  const merged = pair?.[survivorIndex === 0 ? 1 : 0];
  const differing = useMemo(() => {
    if (!pair) return [];
    return MERGE_FIELDS.filter(
      (field) => JSON.stringify(pair[0][field] ?? null) !== JSON.stringify(pair[1][field] ?? null),
    );
  }, [pair]);

  const merge = useMutation({
    mutationFn: () => {
      if (!survivor || !merged) throw new Error('not loaded');
      const values: Record<string, unknown> = {};
      for (const field of differing) {
        values[field] = (choices[field] ?? 'survivor') === 'survivor' ? survivor[field] : merged[field];
      }
      return tradersApi.merge({ survivorId: survivor.id, mergedId: merged.id, values });
    },
    meta: { errorSnackbar: false },
    onSuccess: (result) => {
      notify(t('traders.merge.done', { name: traderLabel(result) }), 'success');
      onMerged(result);
    },
    onError: (failure) => notify(errorMessage(t, failure), 'error'),
  });

  const error = first.error ?? second.error;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby={titleId}
      data-testid="merge-dialog"
    >
      <DialogTitle id={titleId}>{t('traders.merge.title')}</DialogTitle>
      <DialogContent>
        {error && <Alert severity="error">{errorMessage(t, error)}</Alert>}
        {!pair && !error && <Skeleton variant="rounded" height={240} />}
        {pair && survivor && merged && (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('traders.merge.survivorHint')}
            </Typography>
            <RadioGroup
              row
              value={String(survivorIndex)}
              onChange={(event) => {
                setSurvivorIndex(event.target.value === '1' ? 1 : 0);
                // the choices follow the records, not the columns
                setChoices((current) =>
                  Object.fromEntries(
                    Object.entries(current).map(([field, side]) => [
                      field,
                      side === 'survivor' ? 'merged' : 'survivor',
                    ]),
                  ),
                );
              }}
            >
              {pair.map((trader, index) => (
                <FormControlLabel
                  key={trader.id}
                  value={String(index)}
                  control={
                    <Radio
                      slotProps={{ input: { 'data-testid': `merge-survivor-${trader.id}` } as object }}
                    />
                  }
                  label={`${traderLabel(trader)} (#${trader.id})`}
                />
              ))}
            </RadioGroup>
            <Alert severity="warning" sx={{ my: 1.5 }}>
              {t('traders.merge.warning', { merged: traderLabel(merged), survivor: traderLabel(survivor) })}
            </Alert>
            {differing.length === 0 ? (
              <Typography variant="body2">{t('traders.merge.noDifferences')}</Typography>
            ) : (
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('traders.merge.field')}</TableCell>
                    <TableCell>{t('traders.merge.survivor', { name: traderLabel(survivor) })}</TableCell>
                    <TableCell>{t('traders.merge.merged', { name: traderLabel(merged) })}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {differing.map((field) => {
                    const side = choices[field] ?? 'survivor';
                    const option = (value: Side, record: Trader) => (
                      <TableCell>
                        <FormControlLabel
                          checked={side === value}
                          onChange={() => setChoices((current) => ({ ...current, [field]: value }))}
                          control={
                            <Radio
                              size="small"
                              name={`merge-${field}`}
                              slotProps={{
                                input: { 'data-testid': `merge-choice-${field}-${value}` } as object,
                              }}
                            />
                          }
                          label={show(t, field, record[field])}
                        />
                      </TableCell>
                    );
                    return (
                      <TableRow key={field} data-testid={`merge-row-${field}`}>
                        <TableCell sx={{ fontWeight: 500 }}>{t(`traders.field.${field}`)}</TableCell>
                        {option('survivor', survivor)}
                        {option('merged', merged)}
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
            <Box sx={{ mt: 1 }} />
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="inherit" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          color="warning"
          disabled={!pair}
          loading={merge.isPending}
          onClick={() => merge.mutate()}
          data-testid="merge-confirm"
        >
          {t('traders.merge.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
