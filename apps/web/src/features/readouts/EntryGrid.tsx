import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  periodStates,
  type ReadoutRow,
  type ReadoutSheet,
  unableReasonIds,
  writtenCode,
} from '@protocol/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates.ts';
import { useCan } from '../../lib/permissions.ts';
import { LowerReadingDialog } from './LowerReadingDialog.tsx';
import {
  newIdempotencyKey,
  type PeriodKey,
  refusalOf,
  retriable,
  saveReading,
  today,
} from './readoutsApi.ts';
import { checkRow, needsReason } from './rowCheck.ts';

type Status = 'idle' | 'saving' | 'saved' | 'unsaved' | 'busy' | 'error';
interface Draft {
  reading: string;
  unable: number;
  note: string;
  status: Status;
  error?: string;
  /** Made when the reading is typed, kept across its retries: a resend adds nothing. */
  key?: string;
}

const RETRY_MS = 3000;
const draftOf = (row: ReadoutRow): Draft => ({
  reading: row.reading?.reading === null || !row.reading ? '' : String(row.reading.reading),
  unable: row.reading?.unableReason ?? 0,
  note: row.reading?.note ?? '',
  status: row.reading ? 'saved' : 'idle',
});

/** Chips of a row's checks: how the consumption was reached and what sends it to review. */
export function CheckChips({
  basis,
  flags,
  multiple,
}: {
  basis: string | null;
  flags: string[];
  multiple: number;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {basis && basis !== 'normal' && (
        <Chip size="small" variant="outlined" color="info" label={t(`readoutsUi.basis_${basis}`)} />
      )}
      {flags.map((f) => (
        <Chip
          key={f}
          size="small"
          color={f === 'lower' ? 'error' : 'warning'}
          label={t(`readoutsUi.flag_${f}`, { multiple })}
          data-testid={`flag-${f}`}
        />
      ))}
    </Box>
  );
}

function StatusCell({
  draft,
  review,
  updatedBy,
}: {
  draft: Draft;
  review: number | undefined;
  updatedBy: string | null;
}) {
  const { t } = useTranslation();
  const icon = {
    idle: null,
    saving: <CircularProgress size={16} />,
    saved: <CheckCircleOutlineIcon fontSize="small" color="success" />,
    unsaved: <CloudOffOutlinedIcon fontSize="small" color="warning" />,
    busy: <HourglassEmptyIcon fontSize="small" color="warning" />,
    error: <ErrorOutlineIcon fontSize="small" color="error" />,
  }[draft.status];
  if (!icon) return null;
  const text =
    draft.status === 'error'
      ? (draft.error ?? t('readoutsUi.status_error'))
      : draft.status === 'saved' && review === 1
        ? t('readoutsUi.status_review')
        : t(`readoutsUi.status_${draft.status}`);
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}
      data-testid="row-status"
      data-status={draft.status}
    >
      {draft.status === 'saved' ? (
        <Tooltip title={updatedBy ? `${text} · ${updatedBy}` : text}>
          <Box
            component="span"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
            aria-label={text}
          >
            {icon}
            {review === 1 && (
              <Typography variant="caption" color="warning.main">
                {text}
              </Typography>
            )}
          </Box>
        </Tooltip>
      ) : (
        <>
          {icon}
          <Typography
            variant="caption"
            color={draft.status === 'error' ? 'error' : 'text.secondary'}
            sx={{ lineHeight: 1.2 }}
          >
            {text}
          </Typography>
        </>
      )}
    </Box>
  );
}

/**
 * The keyboard-fast grid of a route's period: type a reading, Enter saves the row and moves to the
 * next meter. Each row saves on its own and, when the connection or the route is lost for a while,
 * shows it is unsaved and sends itself again with the same idempotency key.
 */
export function EntryGrid({
  sheet,
  periodKey,
  onHeld,
  onSaved,
}: {
  sheet: ReadoutSheet;
  periodKey: PeriodKey;
  onHeld: (held: boolean) => void;
  onSaved: (row: ReadoutRow) => void;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const locked = sheet.period.state === periodStates.finalized || !can('readouts:write');
  const [rows, setRows] = useState<ReadoutRow[]>(sheet.rows);
  const [drafts, setDrafts] = useState<Record<number, Draft>>(() =>
    Object.fromEntries(sheet.rows.map((r) => [r.consumerId, draftOf(r)])),
  );
  const draftsRef = useRef(drafts);
  draftsRef.current = drafts;
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  // The row whose lower reading waits for its reason.
  const [asking, setAsking] = useState<{ row: ReadoutRow; index: number } | null>(null);

  useEffect(() => {
    setRows(sheet.rows);
    setDrafts((current) => {
      const next: Record<number, Draft> = {};
      for (const r of sheet.rows) {
        const mine = current[r.consumerId];
        // A row being typed or waiting to be sent keeps what was typed over what the server had.
        const blank = mine?.status === 'idle' && mine.reading === '' && mine.unable === 0 && mine.note === '';
        next[r.consumerId] = mine && mine.status !== 'saved' && !blank ? mine : draftOf(r);
      }
      return next;
    });
  }, [sheet.rows]);

  const patch = useCallback((consumerId: number, change: Partial<Draft>) => {
    setDrafts((d) => ({ ...d, [consumerId]: { ...(d[consumerId] as Draft), ...change } }));
  }, []);

  const send = useCallback(
    // `change`: what the operator just gave with the save (the reason of a lower reading).
    async (consumerId: number, change: Partial<Draft> = {}) => {
      const known = draftsRef.current[consumerId];
      if (!known) return;
      const draft = { ...known, ...change };
      if (draft.reading === '' && draft.unable === 0) return;
      const key = draft.key ?? newIdempotencyKey();
      patch(consumerId, { ...change, status: 'saving', key, error: undefined });
      try {
        const saved = await saveReading({
          ...periodKey,
          consumerId,
          reading: draft.reading === '' ? null : Number(draft.reading),
          unableReason: draft.reading === '' ? draft.unable : null,
          note: draft.note || null,
          readOn: today(),
          idempotencyKey: key,
        });
        setRows((all) => all.map((r) => (r.consumerId === consumerId ? saved : r)));
        onSaved(saved);
        // Saved: the next change of this row is a new reading with its own key.
        patch(consumerId, { status: 'saved', key: undefined });
        onHeld(false);
      } catch (error) {
        if (retriable(error)) {
          const busy = (error as { key?: string }).key === 'readouts.busy';
          if (busy) onHeld(true);
          patch(consumerId, { status: busy ? 'busy' : 'unsaved' });
        } else patch(consumerId, { status: 'error', error: refusalOf(t, error), key: undefined });
      }
    },
    [periodKey, patch, onHeld, onSaved, t],
  );

  // Rows that could not be sent try again on their own, and at once when the browser is back online.
  useEffect(() => {
    const retry = () => {
      for (const [id, d] of Object.entries(draftsRef.current))
        if (d.status === 'unsaved' || d.status === 'busy') void send(Number(id));
    };
    const timer = window.setInterval(retry, RETRY_MS);
    window.addEventListener('online', retry);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', retry);
    };
  }, [send]);

  const edit = (consumerId: number, change: Partial<Draft>) =>
    patch(consumerId, { ...change, status: 'idle', key: undefined, error: undefined });

  const moveTo = (index: number) => {
    const next = inputs.current[index];
    if (next) {
      next.focus();
      next.select();
    }
  };

  if (rows.length === 0)
    return (
      <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
        {t('readoutsUi.noMeters')}
      </Typography>
    );

  return (
    <Paper variant="outlined">
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1.5 }}>
        {t('readoutsUi.keyboardHint')}
      </Typography>
      <TableContainer>
        <Table size="small" data-testid="readouts-grid" sx={{ '& td, & th': { px: 1 } }}>
          <TableHead>
            <TableRow>
              {[
                'position',
                'consumer',
                'meter',
                'previous',
                'reading',
                'consumption',
                'average',
                'checks',
                'unable',
                'note',
                'status',
              ].map((c) => (
                <TableCell key={c} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                  {t(`readoutsUi.col.${c}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, index) => {
              const draft = drafts[row.consumerId] ?? draftOf(row);
              const typed =
                draft.status === 'saved' ? null : checkRow(row, draft.reading, sheet.thresholds, draft.note);
              const shown =
                typed ??
                (row.reading && draft.status === 'saved'
                  ? {
                      consumption: row.reading.consumption,
                      basis: row.reading.basis,
                      flags: row.reading.flags,
                    }
                  : null);
              const serial = row.serialNumber ?? writtenCode(row.code);
              return (
                <TableRow key={row.consumerId} data-testid="readout-row" data-consumer={row.consumerId} hover>
                  <TableCell sx={{ color: 'text.secondary' }}>{index + 1}</TableCell>
                  <TableCell sx={{ minWidth: 160 }}>
                    <Typography variant="body2">{writtenCode(row.code)}</Typography>
                    <Typography variant="body2">{row.ownerName}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {row.supplyAddress}
                      {row.locationNotes ? ` · ${row.locationNotes}` : ''}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {row.serialNumber ?? <em>{t('readoutsUi.noMeter')}</em>}
                    {row.direction === -1 && <Chip size="small" sx={{ ml: 0.5 }} label="↺" />}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {row.previousReading ?? '—'}
                      {row.previousEstimate ? ` (${t('readoutsUi.estimated')})` : ''}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {formatDate(row.previousDate)}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ width: 130 }}>
                    <TextField
                      size="small"
                      value={draft.reading}
                      disabled={locked || row.meterId === null}
                      inputRef={(el) => {
                        inputs.current[index] = el;
                      }}
                      onChange={(e) => edit(row.consumerId, { reading: e.target.value.replace(/\D/g, '') })}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || (e.key === 'ArrowDown' && !e.altKey)) {
                          e.preventDefault();
                          if (e.key === 'Enter' && draft.status !== 'saved' && needsReason(typed)) {
                            setAsking({ row, index });
                            return;
                          }
                          if (e.key === 'Enter' && draft.status !== 'saved') void send(row.consumerId);
                          moveTo(index + 1);
                        } else if (e.key === 'ArrowUp') {
                          e.preventDefault();
                          moveTo(index - 1);
                        }
                      }}
                      slotProps={{
                        htmlInput: {
                          inputMode: 'numeric',
                          'aria-label': t('readoutsUi.readingLabel', { serial }),
                          'data-testid': 'reading-input',
                          style: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
                        },
                      }}
                    />
                  </TableCell>
                  <TableCell
                    align="right"
                    sx={{ fontVariantNumeric: 'tabular-nums' }}
                    data-testid="consumption"
                  >
                    {shown?.consumption ?? ''}
                    {row.reading?.estimated && draft.status === 'saved'
                      ? ` (${t('readoutsUi.estimated')})`
                      : ''}
                  </TableCell>
                  <TableCell align="right" sx={{ color: 'text.secondary' }}>
                    {row.average ?? '—'}
                  </TableCell>
                  <TableCell sx={{ minWidth: 120 }}>
                    {shown && (
                      <CheckChips
                        basis={shown.basis}
                        flags={shown.flags}
                        multiple={sheet.thresholds.multiple}
                      />
                    )}
                  </TableCell>
                  <TableCell sx={{ width: 120 }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={draft.unable}
                      disabled={locked || draft.reading !== ''}
                      onChange={(e) => {
                        edit(row.consumerId, { unable: Number(e.target.value) });
                        if (Number(e.target.value) > 0) window.setTimeout(() => void send(row.consumerId), 0);
                      }}
                      slotProps={{ htmlInput: { 'aria-label': t('readoutsUi.unableLabel', { serial }) } }}
                    >
                      {[0, ...unableReasonIds].map((id) => (
                        <MenuItem key={id} value={id}>
                          {t(`readoutsUi.unable_${id}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell sx={{ minWidth: 110 }}>
                    <TextField
                      size="small"
                      fullWidth
                      value={draft.note}
                      disabled={locked}
                      onChange={(e) => edit(row.consumerId, { note: e.target.value.slice(0, 500) })}
                      onBlur={() => {
                        if (drafts[row.consumerId]?.status === 'idle') void send(row.consumerId);
                      }}
                      slotProps={{ htmlInput: { 'aria-label': t('readoutsUi.noteLabel', { serial }) } }}
                    />
                  </TableCell>
                  <TableCell sx={{ maxWidth: 200 }}>
                    <StatusCell
                      draft={draft}
                      review={row.reading?.review}
                      updatedBy={row.reading?.updatedBy ?? null}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {asking && (
        <LowerReadingDialog
          reading={drafts[asking.row.consumerId]?.reading ?? ''}
          previous={asking.row.previousReading ?? 0}
          serial={asking.row.serialNumber ?? writtenCode(asking.row.code)}
          onCancel={() => {
            const { index } = asking;
            setAsking(null);
            window.setTimeout(() => moveTo(index), 0);
          }}
          onReason={(note) => {
            const { row, index } = asking;
            setAsking(null);
            void send(row.consumerId, { note });
            window.setTimeout(() => moveTo(index + 1), 0);
          }}
        />
      )}
    </Paper>
  );
}
