import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import TableRowsOutlinedIcon from '@mui/icons-material/TableRowsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../lib/api.ts';
import { errorMessage, fieldMessage } from '../../lib/errors.ts';
import { useConfirm } from '../ConfirmDialog.tsx';
import { useNotify } from '../Notifier.tsx';
import { RetryAlert } from '../RetryAlert.tsx';
import { CELL_HEIGHT, RowTableCell } from './Cell.tsx';
import type { CellErrors, CellValue, DraftRow, RowTableColumn, RowTableProps } from './types.ts';
import { isBlank, sameRow, shownRow, typedRow, validateCell, validateRows } from './validate.ts';

/** The least width of a column without its own, by what its cells hold (px). */
const MIN_WIDTH: Record<RowTableColumn['type'], number> = {
  text: 180,
  select: 170,
  number: 90,
  decimal: 90,
  boolean: 80,
};

/**
 * An editable grid for a parametric table (spec §4 'Row tables', §5 'Row table save'): rows load
 * with GET from `path`; new rows get ids -1, -2, …; Save validates, runs `preSave`, leaves out rows
 * without a description (after asking), POSTs the whole array (new ids as null) and reloads.
 */
export function RowTable<T>({
  path,
  columns,
  fromServer,
  toPayload,
  parse,
  rowSchema,
  newRow,
  descriptionColumn,
  preSave,
  serverErrorCells,
  title,
  queryKey,
  readOnly,
}: RowTableProps<T>) {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  const [confirm, confirmDialog] = useConfirm();
  const key = useMemo(() => queryKey ?? ['rowTable', path], [queryKey, path]);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const data = await api.get<unknown>(path, { signal });
      return parse ? parse(data) : (data as T[]);
    },
    staleTime: 0,
  });

  const [rows, setRows] = useState<DraftRow[] | null>(null);
  const [baseline, setBaseline] = useState<Map<number, DraftRow>>(new Map());
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [errors, setErrors] = useState<CellErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [reloading, setReloading] = useState(false);
  const nextId = useRef(-1);
  const focusAfterRender = useRef<string | null>(null);
  const tableRef = useRef<HTMLDivElement>(null);

  const load = useCallback(
    (items: T[]) => {
      const language = i18n.language === 'en' ? 'en' : 'el';
      const drafts = items.map((item) => shownRow(fromServer(item), columns, language));
      setRows(drafts);
      setBaseline(new Map(drafts.map((row) => [row.id, row])));
      setSelected(new Set());
      setErrors({});
      setAttempted(false);
      nextId.current = -1;
    },
    [fromServer, columns, i18n],
  );

  useEffect(() => {
    if (rows === null && query.data) load(query.data);
  }, [rows, query.data, load]);

  const changedIds = useMemo(() => {
    const changed = new Set<number>();
    for (const row of rows ?? []) {
      const original = baseline.get(row.id);
      if (!original || !sameRow(row, original, columns)) changed.add(row.id);
    }
    return changed;
  }, [rows, baseline, columns]);
  const removedCount = useMemo(() => {
    const present = new Set((rows ?? []).map((row) => row.id));
    return [...baseline.keys()].filter((id) => !present.has(id)).length;
  }, [rows, baseline]);
  const dirty = changedIds.size > 0 || removedCount > 0;

  // Leaving the page with unsaved changes asks first (reload, close, typed address).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Focus a cell once it exists (after adding a row, or on the first error).
  useEffect(() => {
    const target = focusAfterRender.current;
    if (!target) return;
    focusAfterRender.current = null;
    const element = tableRef.current?.querySelector<HTMLElement>(`[data-cell="${target}"]`);
    element?.focus();
    element?.scrollIntoView({ block: 'nearest' });
  });

  const firstEditable = columns[0];

  // The rows as last rendered, for checking a whole row as one of its cells changes.
  const rowsRef = useRef<DraftRow[] | null>(null);
  useEffect(() => {
    rowsRef.current = rows;
  }, [rows]);

  const setCell = useCallback(
    (rowId: number, column: string, value: CellValue) => {
      setRows((current) =>
        (current ?? []).map((row) => (row.id === rowId ? { ...row, [column]: value } : row)),
      );
      const before = rowsRef.current?.find((row) => row.id === rowId);
      const changed = before ? { ...before, [column]: value } : undefined;
      setErrors((current) => {
        const cells = { ...(current[rowId] ?? {}) };
        for (const definition of columns) {
          // The edited cell, and (after a save attempt) the cells whose editor follows the row.
          const dependent = definition.type === 'text' && definition.cellType !== undefined;
          if (definition.key !== column && !(attempted && dependent && changed)) continue;
          const message = attempted
            ? validateCell(definition, changed ? changed[definition.key] : value, changed)
            : undefined;
          if (message) cells[definition.key] = message;
          else delete cells[definition.key];
        }
        return { ...current, [rowId]: cells };
      });
    },
    [columns, attempted],
  );

  const addRow = () => {
    const id = nextId.current;
    nextId.current -= 1;
    const shown = shownRow({ ...newRow(), id }, columns, i18n.language === 'en' ? 'en' : 'el');
    setRows((current) => [...(current ?? []), shown]);
    if (firstEditable) focusAfterRender.current = `${firstEditable.key}:${id}`;
  };

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const allIds = (rows ?? []).map((row) => row.id);
  const allSelected = allIds.length > 0 && allIds.every((id) => selected.has(id));
  const someSelected = allIds.some((id) => selected.has(id));

  const deleteSelected = async () => {
    const ids = allIds.filter((id) => selected.has(id));
    if (ids.length === 0) return;
    const ok = await confirm({
      title: t('rowTable.deleteTitle'),
      message: t('rowTable.deleteMessage', { count: ids.length }),
      confirmLabel: t('rowTable.delete'),
      danger: true,
    });
    if (!ok) return;
    const gone = new Set(ids);
    setRows((current) => (current ?? []).filter((row) => !gone.has(row.id)));
    setSelected(new Set());
  };

  const reload = async () => {
    setReloading(true);
    try {
      const result = await query.refetch();
      if (result.data) load(result.data);
      else if (result.error) notify(errorMessage(t, result.error), 'error');
    } finally {
      setReloading(false);
    }
  };

  const refresh = async () => {
    if (dirty) {
      const ok = await confirm({
        title: t('rowTable.refreshTitle'),
        message: t('rowTable.refreshMessage'),
        confirmLabel: t('rowTable.discard'),
        danger: true,
      });
      if (!ok) return;
    }
    await reload();
  };

  const save = async () => {
    if (!rows || saving) return;
    const skipped = descriptionColumn ? rows.filter((row) => isBlank(row[descriptionColumn])) : [];
    const kept = rows.filter((row) => !skipped.includes(row));

    // 1. Form validation (spec §5): mark the cells, say what is wrong.
    const result = validateRows(kept, columns, toPayload, rowSchema);
    setErrors(result.errors);
    setAttempted(true);
    if (result.missing + result.invalid > 0) {
      notify(t(result.invalid > 0 ? 'validation.fix_errors' : 'rowTable.incomplete'), 'error');
      const firstRow = kept.find((row) => result.errors[row.id]);
      const firstColumn = firstRow && columns.find((column) => result.errors[firstRow.id]?.[column.key]);
      if (firstRow && firstColumn) focusAfterRender.current = `${firstColumn.key}:${firstRow.id}`;
      return;
    }
    const typed = kept.map((row) => typedRow(row, columns));

    // 2. The table's own check; false or an exception stops the save.
    if (preSave) {
      try {
        if (!(await preSave(typed))) return;
      } catch (failure) {
        notify(errorMessage(t, failure), 'error');
        return;
      }
    }

    // 3. Rows without a description are not saved: ask first.
    if (skipped.length > 0) {
      const existing = skipped.filter((row) => row.id > 0).length;
      const ok = await confirm({
        title: t('rowTable.emptyDescriptionTitle'),
        message: (
          <>
            <Box component="span" sx={{ display: 'block' }}>
              {t('rowTable.emptyDescriptionMessage', { count: skipped.length })}
            </Box>
            {existing > 0 && (
              <Box component="span" sx={{ display: 'block', mt: 1.5, color: 'error.main' }}>
                {t('rowTable.emptyDescriptionExisting', { count: existing })}
              </Box>
            )}
            <Box component="span" sx={{ display: 'block', mt: 1.5, fontWeight: 600 }}>
              {t('rowTable.continueQuestion')}
            </Box>
          </>
        ),
      });
      if (!ok) return;
    }

    // 4. The whole table in one POST, then reload.
    setSaving(true);
    try {
      await api.post<unknown>(path, typed.map(toPayload));
      notify(t('parametrics.text_updated_successfully'), 'success');
      await reload();
    } catch (failure) {
      notify(errorMessage(t, failure), 'error');
      if (isApiError(failure) && serverErrorCells) {
        const marked = serverErrorCells(failure, kept);
        if (marked) setErrors(marked);
      }
    } finally {
      setSaving(false);
    }
  };

  /** Arrow up/down and Enter move between rows in the same column; Ctrl+S saves. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      if (!readOnly) void save();
      return;
    }
    const target = event.target as HTMLElement;
    const cell = target.dataset.cell;
    if (!cell || target.tagName === 'SELECT') return;
    if (!['ArrowUp', 'ArrowDown', 'Enter'].includes(event.key)) return;
    if (event.key === 'Enter' && target.getAttribute('type') === 'checkbox') return;
    const [column, idText] = cell.split(':');
    const index = allIds.indexOf(Number(idText));
    const nextIndex = event.key === 'ArrowUp' ? index - 1 : index + 1;
    const nextId = allIds[nextIndex];
    if (nextId === undefined) return;
    event.preventDefault();
    tableRef.current?.querySelector<HTMLElement>(`[data-cell="${column}:${nextId}"]`)?.focus();
  };

  const loading = rows === null && !query.error;
  const count = rows?.length ?? 0;

  return (
    <Paper variant="outlined" data-testid="row-table" data-dirty={String(dirty)} sx={{ overflow: 'hidden' }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1,
          px: 2,
          py: 1.25,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, flexGrow: 1, minWidth: 0 }}>
          <TableRowsOutlinedIcon fontSize="small" sx={{ color: 'text.secondary' }} />
          {title && (
            <Typography component="h2" sx={{ fontWeight: 600, fontSize: 15 }} noWrap>
              {title}
            </Typography>
          )}
          {rows && <Chip size="small" label={t('rowTable.rowCount', { count })} sx={{ fontWeight: 500 }} />}
          {dirty && (
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              data-testid="row-table-unsaved"
              label={t('rowTable.unsaved')}
              sx={{ fontWeight: 600, '& .MuiChip-label::before': { content: '"● "' } }}
            />
          )}
        </Box>
        {!readOnly && (
          <>
            <Button
              size="small"
              variant="outlined"
              startIcon={<AddIcon />}
              onClick={addRow}
              disabled={!rows || saving}
              data-testid="row-add"
            >
              {t('rowTable.add')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              color="error"
              startIcon={<DeleteOutlineIcon />}
              onClick={() => void deleteSelected()}
              disabled={!someSelected || saving}
              data-testid="row-delete"
            >
              {someSelected
                ? t('rowTable.deleteSelected', { count: allIds.filter((id) => selected.has(id)).length })
                : t('rowTable.delete')}
            </Button>
          </>
        )}
        <Button
          size="small"
          color="inherit"
          startIcon={<RefreshIcon />}
          onClick={() => void refresh()}
          disabled={saving}
          loading={reloading && !saving}
          data-testid="row-refresh"
          sx={{ color: 'text.secondary' }}
        >
          {t('common.refresh')}
        </Button>
        {!readOnly && (
          <Button
            size="small"
            variant="contained"
            startIcon={<SaveOutlinedIcon />}
            onClick={() => void save()}
            disabled={!rows || !dirty}
            loading={saving}
            data-testid="row-save"
          >
            {t('common.save')}
          </Button>
        )}
      </Box>

      {readOnly && (
        <Alert
          severity="info"
          icon={<LockOutlinedIcon fontSize="small" />}
          data-testid="row-table-read-only"
          sx={{ borderRadius: 0 }}
        >
          {readOnly}
        </Alert>
      )}
      {query.error && rows === null ? (
        <RetryAlert error={query.error} onRetry={() => void query.refetch()} sx={{ m: 2 }} />
      ) : (
        <TableContainer
          ref={tableRef}
          onKeyDown={onKeyDown}
          sx={{ maxHeight: 'calc(100vh - 330px)', minHeight: 160 }}
        >
          <Table size="small" stickyHeader aria-label={title} aria-busy={loading || saving}>
            <TableHead>
              <TableRow>
                {!readOnly && (
                  <TableCell padding="checkbox" sx={{ bgcolor: 'background.paper', width: 48 }}>
                    <Checkbox
                      size="small"
                      checked={allSelected}
                      indeterminate={someSelected && !allSelected}
                      disabled={count === 0}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(allIds))}
                      slotProps={{
                        input: {
                          'aria-label': t('rowTable.selectAll'),
                          'data-testid': 'row-check-all',
                        } as object,
                      }}
                    />
                  </TableCell>
                )}
                {columns.map((column) => (
                  <TableCell
                    key={column.key}
                    title={column.hint}
                    sx={{
                      width: column.width,
                      // A wide table scrolls sideways rather than squeezing its text and choices
                      // to a few letters.
                      minWidth: column.width ?? MIN_WIDTH[column.type],
                      whiteSpace: 'nowrap',
                      fontWeight: 600,
                      color: 'text.secondary',
                      fontSize: 13,
                      bgcolor: 'background.paper',
                    }}
                  >
                    {column.label}
                    {column.required && (
                      <Box component="span" aria-hidden sx={{ color: 'error.main', ml: 0.25 }}>
                        *
                      </Box>
                    )}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {loading &&
                [0, 1, 2, 3].map((index) => (
                  <TableRow key={`skeleton-${index}`}>
                    {!readOnly && <TableCell padding="checkbox" />}
                    {columns.map((column) => (
                      <TableCell key={column.key}>
                        <Skeleton height={28} />
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              {rows?.length === 0 && (
                <TableRow>
                  <TableCell
                    colSpan={columns.length + (readOnly ? 0 : 1)}
                    sx={{ py: 6, textAlign: 'center', border: 0 }}
                  >
                    <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{t('rowTable.emptyTitle')}</Typography>
                    {!readOnly && (
                      <Typography variant="body2" color="text.secondary">
                        {t('rowTable.emptyText')}
                      </Typography>
                    )}
                  </TableCell>
                </TableRow>
              )}
              {rows?.map((row) => {
                const isSelected = selected.has(row.id);
                const changed = changedIds.has(row.id);
                const rowErrors = errors[row.id];
                return (
                  <TableRow
                    key={row.id}
                    hover
                    selected={isSelected}
                    data-testid="row-table-row"
                    data-id={row.id}
                    data-new={row.id < 0 ? 'true' : undefined}
                    data-changed={changed ? 'true' : undefined}
                    sx={{ '& > td': { verticalAlign: 'top' } }}
                  >
                    {!readOnly && (
                      <TableCell
                        padding="checkbox"
                        sx={(theme) => ({
                          boxShadow: changed ? `inset 3px 0 0 ${theme.palette.warning.main}` : undefined,
                        })}
                      >
                        <Box sx={{ height: CELL_HEIGHT, mt: 0.75, display: 'flex', alignItems: 'center' }}>
                          <Checkbox
                            size="small"
                            checked={isSelected}
                            onChange={() => toggle(row.id)}
                            slotProps={{
                              input: {
                                'aria-label': t('rowTable.selectRow', {
                                  id: row.id > 0 ? row.id : t('rowTable.newRow'),
                                }),
                                'data-testid': `row-check-${row.id}`,
                              } as object,
                            }}
                          />
                        </Box>
                      </TableCell>
                    )}
                    {columns.map((column) => (
                      <TableCell key={column.key} sx={{ py: 0.75, px: 1 }}>
                        <RowTableCell
                          column={column}
                          rowId={row.id}
                          value={row[column.key] ?? null}
                          error={fieldMessage(t, rowErrors?.[column.key])}
                          onChange={setCell}
                          disabled={saving || Boolean(readOnly)}
                          row={column.type === 'text' && (column.cellType || column.note) ? row : undefined}
                        />
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 2,
          justifyContent: 'space-between',
          alignItems: 'center',
          px: 2,
          py: 1,
          borderTop: 1,
          borderColor: 'divider',
          color: 'text.secondary',
          fontSize: 12.5,
        }}
      >
        <span>
          {dirty
            ? t('rowTable.changesSummary', { changed: changedIds.size, removed: removedCount })
            : t('rowTable.noChanges')}
        </span>
        <span>{t('rowTable.keyboardHint')}</span>
      </Box>
      {confirmDialog}
    </Paper>
  );
}
