import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { NO_ESTIMATE_FLAG, type ReviewItem, reviewStates, writtenCode } from '@protocol/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { notify } from '../../lib/notifier.ts';
import { useCan } from '../../lib/permissions.ts';
import { CheckChips } from './EntryGrid.tsx';
import { type PeriodKey, useReview } from './readoutsApi.ts';

/** Every flagged reading of the period with one-click accept, or a correction typed in place. */
export function ReviewList({
  periodKey,
  multiple,
  locked,
  onChanged,
}: {
  periodKey: PeriodKey;
  multiple: number;
  locked: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const review = useReview(periodKey);
  const [correcting, setCorrecting] = useState<{ id: number; value: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // A supervisor narrows the list to one check (e.g. the lower readings taken with a reason).
  const [flag, setFlag] = useState<string | null>(null);
  if (review.isError) return <RetryAlert error={review.error} onRetry={() => void review.refetch()} />;
  const all = review.data ?? [];
  const present = [...new Set(all.flatMap((item) => item.flags))];
  const chosen = flag !== null && present.includes(flag) ? flag : null;
  const items = chosen === null ? all : all.filter((item) => item.flags.includes(chosen));

  const act = async (item: ReviewItem, body: { action: 'accept' | 'correct'; reading?: number }) => {
    setBusy(true);
    try {
      await api.post(`/api/readouts/readings/${item.readingId}/review`, body);
      notify(t('readoutsUi.review.done'), 'success');
      setCorrecting(null);
      await review.refetch();
      onChanged();
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setBusy(false);
    }
  };

  if (!review.isPending && all.length === 0)
    return (
      <Paper variant="outlined">
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="review-empty">
          {t('readoutsUi.review.empty')}
        </Typography>
      </Paper>
    );
  const editable = can('readouts:write') && !locked;
  // A meter the close could not estimate is read through a correction, after the close too.
  const correctable = (item: ReviewItem) =>
    can('readouts:write') && (!locked || item.flags.includes(NO_ESTIMATE_FLAG));
  return (
    <Paper variant="outlined">
      <Box
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 2, pt: 1.5 }}
        role="group"
        aria-label={t('readoutsUi.review.filterLabel')}
        data-testid="review-filter"
      >
        <Typography variant="body2" color="text.secondary">
          {t('readoutsUi.review.filterLabel')}
        </Typography>
        <Chip
          size="small"
          label={t('readoutsUi.review.all', { count: all.length })}
          color={chosen === null ? 'primary' : 'default'}
          variant={chosen === null ? 'filled' : 'outlined'}
          onClick={() => setFlag(null)}
          aria-pressed={chosen === null}
        />
        {present.map((f) => (
          <Chip
            key={f}
            size="small"
            label={`${t(`readoutsUi.flag_${f}`, { multiple })} (${all.filter((item) => item.flags.includes(f)).length})`}
            color={chosen === f ? 'primary' : 'default'}
            variant={chosen === f ? 'filled' : 'outlined'}
            onClick={() => setFlag(f)}
            aria-pressed={chosen === f}
            data-testid={`review-filter-${f}`}
          />
        ))}
      </Box>
      <TableContainer>
        <Table size="small" data-testid="review-list" sx={{ '& td, & th': { px: 1 } }}>
          <TableHead>
            <TableRow>
              {['consumer', 'meter', 'previous', 'reading', 'consumption', 'average', 'checks'].map((c) => (
                <TableCell key={c} sx={{ fontWeight: 600 }}>
                  {t(`readoutsUi.col.${c}`)}
                </TableCell>
              ))}
              <TableCell sx={{ fontWeight: 600 }}>{t('readoutsUi.review.reason')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('readoutsUi.col.status')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.readingId} data-testid="review-row">
                <TableCell>
                  <Typography variant="body2">{writtenCode(item.code)}</Typography>
                  <Typography variant="body2">{item.ownerName}</Typography>
                </TableCell>
                <TableCell>{item.serialNumber}</TableCell>
                <TableCell align="right">{item.previousReading}</TableCell>
                <TableCell align="right">{item.reading}</TableCell>
                <TableCell align="right">{item.consumption}</TableCell>
                <TableCell align="right">{item.average ?? '—'}</TableCell>
                <TableCell>
                  <CheckChips basis={null} flags={item.flags} multiple={multiple} />
                </TableCell>
                <TableCell sx={{ maxWidth: 260 }} data-testid="review-note">
                  {item.note}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant={item.review === reviewStates.accepted ? 'filled' : 'outlined'}
                    color={item.review === reviewStates.accepted ? 'success' : 'warning'}
                    label={t(
                      item.review === reviewStates.accepted
                        ? 'readoutsUi.review.accepted'
                        : item.flags.includes(NO_ESTIMATE_FLAG)
                          ? 'readoutsUi.review.needsReading'
                          : 'readoutsUi.review.waiting',
                    )}
                  />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {correctable(item) && correcting?.id === item.readingId ? (
                    <Box
                      component="form"
                      sx={{ display: 'flex', gap: 1 }}
                      onSubmit={(e) => {
                        e.preventDefault();
                        if (/^\d+$/.test(correcting.value))
                          void act(item, { action: 'correct', reading: Number(correcting.value) });
                      }}
                    >
                      <TextField
                        size="small"
                        autoFocus
                        value={correcting.value}
                        onChange={(e) =>
                          setCorrecting({ id: item.readingId, value: e.target.value.replace(/\D/g, '') })
                        }
                        slotProps={{
                          htmlInput: {
                            inputMode: 'numeric',
                            'aria-label': t('readoutsUi.review.newReading'),
                            style: { width: 90 },
                          },
                        }}
                      />
                      <Button type="submit" variant="contained" size="small" disabled={busy}>
                        {t('readoutsUi.review.save')}
                      </Button>
                    </Box>
                  ) : (
                    correctable(item) && (
                      <>
                        {editable &&
                          item.review !== reviewStates.accepted &&
                          !item.flags.includes(NO_ESTIMATE_FLAG) && (
                            <Button
                              size="small"
                              variant="contained"
                              disabled={busy}
                              onClick={() => void act(item, { action: 'accept' })}
                              data-testid="review-accept"
                            >
                              {t('readoutsUi.review.accept')}
                            </Button>
                          )}
                        <Button
                          size="small"
                          sx={{ ml: 1 }}
                          disabled={busy}
                          onClick={() =>
                            setCorrecting({ id: item.readingId, value: String(item.reading ?? '') })
                          }
                        >
                          {t('readoutsUi.review.correct')}
                        </Button>
                      </>
                    )
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
