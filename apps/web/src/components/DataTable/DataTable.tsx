import './i18n/index.ts';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import NativeSelect from '@mui/material/NativeSelect';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  type EntityCatalog,
  type ExportFormat,
  type FieldDef,
  LIST_SIZE_OPTIONS,
  type Page,
  userKinds,
} from '@protocol/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  type ColumnDef,
  type ColumnSizingState,
  getCoreRowModel,
  type Updater,
  useReactTable,
} from '@tanstack/react-table';
import { type MouseEvent, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useUser } from '../../app/currentUser.tsx';
import { useLang } from '../../app/language.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { stripLang } from '../../lib/lang.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { useNotify } from '../Notifier.tsx';
import { RetryAlert } from '../RetryAlert.tsx';
import { ActionBar } from './ActionBar.tsx';
import { ColumnChooser } from './ColumnChooser.tsx';
import { CellContent, labelOf, NOTES_MAX_WIDTH, type Row } from './cells.tsx';
import { downloadExport, openPrint } from './exporting.ts';
import { HeaderFilter } from './HeaderFilter.tsx';
import { rememberList } from './listMemory.ts';
import { QuickSearch } from './QuickSearch.tsx';
import { SelectedPanel } from './SelectedPanel.tsx';
import {
  apiParams,
  type ColumnSetting,
  defaultColumns,
  defaultQuery,
  type FilterValue,
  fieldOf,
  type QueryState,
  type SortItem,
  stateSignature,
  type TableState,
  viewToState,
  withFilter,
  withQuery,
} from './state.ts';
import { useTableUrlState } from './useTableUrlState.ts';
import { type SavedView, useTableViews } from './useTableViews.ts';
import { ViewsMenu } from './ViewsMenu.tsx';

export interface DataTableProps<T extends Row> {
  /** The entity's field catalog: columns, filters, sort and exports come from it. */
  catalog: EntityCatalog;
  /** The list endpoint answering spec §3's paged response, e.g. '/api/users/search'. */
  searchUrl: string;
  /** Translated list title (exports, print, fast switch). */
  title: string;
  /** Saved views key; default `<entity>.list`. */
  metaKey?: string;
  /** Saved views endpoint; default '/api/users/meta'. */
  metaUrl?: string;
  /** The create action; hidden when absent. */
  onCreate?: () => void;
  /** A row click, e.g. to its edit page. */
  onRowClick?: (row: T) => void;
  /** Mass delete of the selected ids, after a confirmation; the action is hidden when absent. */
  onDelete?: (ids: T['id'][]) => Promise<unknown>;
  /** A row's name in the selected-items panel and the delete confirmation. */
  rowLabel: (row: T) => string;
  rowSecondary?: (row: T) => string;
  /** Another way to load a page than GET `searchUrl?query`. */
  fetchPage?: (query: string, signal: AbortSignal) => Promise<Page<T>>;
  /** Told the selected rows whenever the selection changes (e.g. to offer actions on two rows). */
  onSelectionChange?: (rows: T[]) => void;
}

const HEADER_HEIGHT = 42;
const SELECT_WIDTH = 48;

function sizeLabel(t: (key: string) => string, size: number): string {
  return size === -1 ? t('table.all') : String(size);
}

/**
 * The one list component (spec §2, §4): server-side paging, sorting and header filters, saved
 * views, column chooser, selection with its panel, exports and print; its state lives in the URL.
 */
export function DataTable<T extends Row>(props: DataTableProps<T>) {
  const { catalog, searchUrl, title, onCreate, onRowClick, onDelete, rowLabel, rowSecondary, fetchPage } =
    props;
  const metaKey = props.metaKey ?? `${catalog.entity}.list`;
  const metaUrl = props.metaUrl ?? '/api/users/meta';
  const { t } = useTranslation();
  const lang = useLang();
  const notify = useNotify();
  const user = useUser();
  const location = useLocation();
  const isAdmin = user.kind === userKinds.admin || user.superAdmin;
  const tableId = useId();

  // ----- views and state -----
  const views = useTableViews({ catalog, metaKey, metaUrl });
  const url = useTableUrlState(catalog);
  const displayed: SavedView | undefined =
    (url.viewId !== null ? views.views.find((item) => item.row.id === url.viewId) : undefined) ??
    views.active;
  const displayedKey = displayed ? `${displayed.row.id}:${displayed.row.metaValue}` : 'none';
  const viewState: TableState = useMemo(
    () =>
      displayed
        ? viewToState(catalog, displayed.view)
        : { query: defaultQuery(catalog), columns: defaultColumns(catalog) },
    [catalog, displayed],
  );
  const query: QueryState = useMemo(() => url.query(viewState.query) ?? viewState.query, [url, viewState]);

  const [columnOverride, setColumnOverride] = useState<{ key: string; columns: ColumnSetting[] } | null>(
    null,
  );
  const columns = columnOverride?.key === displayedKey ? columnOverride.columns : viewState.columns;
  const setColumns = useCallback(
    (next: ColumnSetting[]) => setColumnOverride({ key: displayedKey, columns: next }),
    [displayedKey],
  );
  const tableState: TableState = useMemo(() => ({ query, columns }), [query, columns]);
  const modified = displayed !== undefined && stateSignature(tableState) !== stateSignature(viewState);
  const viewId = displayed?.row.id ?? null;

  const setQuery = useCallback(
    (next: QueryState, replace = false) => url.write(next, viewId, replace),
    [url, viewId],
  );
  const setSearch = useCallback(
    (search: string) => setQuery({ ...query, search, page: 0 }, true),
    [query, setQuery],
  );
  const setFieldFilter = useCallback(
    (field: string, values: FilterValue[], typing?: boolean) =>
      setQuery({ ...query, filters: withFilter(query.filters, field, values), page: 0 }, typing),
    [query, setQuery],
  );

  // ----- data -----
  const queryString = apiParams(query).toString();
  const listUri = withQuery(searchUrl, apiParams(query, false).toString());
  const data = useQuery({
    queryKey: ['list', searchUrl, queryString],
    queryFn: ({ signal }) =>
      fetchPage
        ? fetchPage(queryString, signal)
        : api.get<Page<T>>(withQuery(searchUrl, queryString), { signal }),
    enabled: !views.loading,
    placeholderData: keepPreviousData,
  });
  const rows = data.data?.content ?? [];
  const total = data.data?.totalElements ?? 0;
  const totalPages = data.data?.totalPages ?? 0;

  const visibleColumns = useMemo(() => columns.filter((column) => column.visible), [columns]);

  // The fast switch of the edit pages shows this very list.
  useEffect(() => {
    if (views.loading) return;
    rememberList(catalog.entity, {
      searchUrl,
      query: queryString,
      columns: visibleColumns.map((column) => column.id),
      listPath: `${stripLang(location.pathname)}${location.search}`,
      title,
    });
  }, [
    catalog.entity,
    searchUrl,
    queryString,
    visibleColumns,
    location.pathname,
    location.search,
    title,
    views.loading,
  ]);

  // ----- selection -----
  const [selected, setSelected] = useState<Map<T['id'], T>>(() => new Map());
  const [showSelected, setShowSelected] = useState(false);
  const toggleRow = (row: T) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row);
      return next;
    });
  const { onSelectionChange } = props;
  useEffect(() => {
    onSelectionChange?.([...selected.values()]);
  }, [selected, onSelectionChange]);
  const pageSelected = rows.filter((row) => selected.has(row.id)).length;
  const allOnPage = rows.length > 0 && pageSelected === rows.length;
  const togglePage = () =>
    setSelected((current) => {
      const next = new Map(current);
      if (allOnPage) for (const row of rows) next.delete(row.id);
      else for (const row of rows) next.set(row.id, row);
      return next;
    });

  // ----- actions -----
  const [confirmDelete, setConfirmDelete] = useState(false);
  const deletion = useMutation({
    mutationFn: (ids: T['id'][]) => (onDelete ? onDelete(ids) : Promise.resolve()),
    onSuccess: (_answer, ids) => {
      notify(t('table.deleted', { count: ids.length }), 'success');
      setSelected(new Map());
      void data.refetch();
    },
    onSettled: () => setConfirmDelete(false),
  });

  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const exportColumns = visibleColumns
    .filter((column) => fieldOf(catalog, column.id)?.exportable)
    .map((column) => column.id);
  const runExport = (format: ExportFormat) => {
    setExporting(format);
    downloadExport({ uri: listUri, format, columns: exportColumns, lang, title })
      .then(() => notify(t('export.done'), 'success'))
      .catch((failure: unknown) => notify(errorMessage(t, failure), 'error'))
      .finally(() => setExporting(null));
  };

  // ----- table model (TanStack Table: column order, visibility and sizing) -----
  const columnDefs = useMemo<ColumnDef<T>[]>(
    () =>
      columns.flatMap((column) => {
        const field = fieldOf(catalog, column.id);
        if (!field) return [];
        return [
          {
            id: field.id,
            accessorFn: (row: T) => row[field.id],
            size: column.width ?? field.width ?? 150,
            minSize: 60,
            maxSize: field.notes ? NOTES_MAX_WIDTH : 800,
            meta: field,
          },
        ];
      }),
    [catalog, columns],
  );
  const columnSizing = useMemo<ColumnSizingState>(
    () => Object.fromEntries(columns.map((column) => [column.id, column.width ?? 150])),
    [columns],
  );
  const onColumnSizingChange = (updater: Updater<ColumnSizingState>) => {
    const next = typeof updater === 'function' ? updater(columnSizing) : updater;
    setColumns(
      columns.map((column) =>
        next[column.id] !== undefined ? { ...column, width: Math.round(next[column.id] ?? 150) } : column,
      ),
    );
  };
  const table = useReactTable<T>({
    data: rows,
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.id),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    enableColumnResizing: true,
    columnResizeMode: 'onChange',
    state: {
      columnVisibility: Object.fromEntries(columns.map((column) => [column.id, column.visible])),
      columnOrder: columns.map((column) => column.id),
      columnSizing,
    },
    onColumnSizingChange,
  });
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const tableWidth = SELECT_WIDTH + table.getTotalSize();

  // ----- sorting -----
  const onSort = (field: FieldDef, event: MouseEvent) => {
    const multi = event.shiftKey || event.ctrlKey || event.metaKey;
    const existing = query.sort.find((item) => item.id === field.id);
    let next: SortItem[];
    if (!multi) next = [{ id: field.id, desc: existing ? !existing.desc : false }];
    else if (!existing) next = [...query.sort, { id: field.id, desc: false }].slice(-5);
    else if (!existing.desc)
      next = query.sort.map((item) => (item.id === field.id ? { ...item, desc: true } : item));
    else {
      next = query.sort.filter((item) => item.id !== field.id);
      if (next.length === 0) next = [{ id: field.id, desc: false }];
    }
    setQuery({ ...query, sort: next, page: 0 });
  };

  // ----- paging -----
  const from = total === 0 ? 0 : query.size === -1 ? 1 : query.page * query.size + 1;
  const to = query.size === -1 ? total : Math.min(total, (query.page + 1) * query.size);
  const lastPage = Math.max(0, totalPages - 1);
  const goTo = (page: number) => setQuery({ ...query, page: Math.min(Math.max(0, page), lastPage) });
  const sizeOptions: number[] = [...LIST_SIZE_OPTIONS];
  if (!sizeOptions.includes(query.size)) sizeOptions.splice(-1, 0, query.size);

  const colSpan = visibleColumns.length + 1;
  const selectedRows = [...selected.values()];
  const initialLoading = views.loading || (data.isPending && !data.data);

  return (
    <Paper
      variant="outlined"
      data-testid="data-table"
      data-entity={catalog.entity}
      sx={{ overflow: 'hidden' }}
    >
      {/* Action bar and quick search */}
      <Box
        role="toolbar"
        aria-label={t('table.toolbar')}
        sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.5, px: 1.5, py: 1 }}
      >
        <ActionBar
          onCreate={onCreate}
          onRefresh={() => void data.refetch()}
          refreshing={data.isFetching && !initialLoading}
          onDelete={onDelete ? () => setConfirmDelete(true) : undefined}
          selectedCount={selected.size}
          onExport={runExport}
          exporting={exporting}
          onPrint={() => openPrint({ uri: listUri, columns: exportColumns, lang, title })}
          showSelected={showSelected}
          onToggleSelected={() => setShowSelected((value) => !value)}
        />
        <Box sx={{ flexGrow: 1 }} />
        {catalog.fields.some((field) => field.searchable) && (
          <QuickSearch value={query.search} onChange={setSearch} />
        )}
      </Box>
      {/* Views and columns */}
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          flexWrap: 'wrap',
          gap: 1,
          px: 1.5,
          py: 0.75,
          borderTop: 1,
          borderColor: 'divider',
          bgcolor: (theme) => (theme.palette.mode === 'light' ? '#fafafe' : 'rgba(255,255,255,0.02)'),
        }}
      >
        <ViewsMenuSlot
          views={views}
          displayed={displayed}
          modified={modified}
          isAdmin={isAdmin}
          tableState={tableState}
          onShowView={url.showView}
          onSaved={(id) => url.write(query, id, true)}
        />
        <Box sx={{ flexGrow: 1 }} />
        <ColumnChooser catalog={catalog} columns={columns} onChange={setColumns} />
      </Box>

      <Box sx={{ display: 'flex', borderTop: 1, borderColor: 'divider', alignItems: 'stretch' }}>
        <Box sx={{ flex: '1 1 auto', minWidth: 0, position: 'relative' }}>
          {data.isFetching && !initialLoading && (
            <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 3, height: 2 }} />
          )}
          {data.isError && (
            <RetryAlert
              error={data.error}
              onRetry={() => void data.refetch()}
              testId="data-table-error"
              sx={{ m: 1.5 }}
            />
          )}
          <TableContainer sx={{ maxHeight: 'calc(100vh - 330px)', minHeight: 240 }}>
            <Table
              size="small"
              stickyHeader
              aria-label={title}
              aria-describedby={`${tableId}-total`}
              aria-rowcount={total}
              sx={{
                tableLayout: 'fixed',
                width: tableWidth,
                minWidth: '100%',
                '& th, & td': { borderColor: 'divider' },
              }}
            >
              <colgroup>
                <col style={{ width: SELECT_WIDTH }} />
                {headers.map((header) => (
                  <col key={header.id} style={{ width: header.getSize() }} />
                ))}
              </colgroup>
              <TableHead>
                <TableRow sx={{ height: HEADER_HEIGHT }}>
                  <TableCell
                    padding="checkbox"
                    sx={{ ...headerCellSx, overflow: 'visible', textOverflow: 'clip' }}
                  >
                    <Checkbox
                      size="small"
                      checked={allOnPage}
                      indeterminate={pageSelected > 0 && !allOnPage}
                      onChange={togglePage}
                      disabled={rows.length === 0}
                      slotProps={{
                        input: {
                          'aria-label': t('table.selectPage'),
                          'data-testid': 'row-select-page',
                        } as object,
                      }}
                    />
                  </TableCell>
                  {headers.map((header) => {
                    const field = header.column.columnDef.meta as FieldDef;
                    const label = labelOf(t, field);
                    const sortIndex = query.sort.findIndex((item) => item.id === field.id);
                    const sortItem = query.sort[sortIndex];
                    return (
                      <TableCell
                        key={header.id}
                        sx={{ ...headerCellSx, position: 'sticky', pr: 1.5 }}
                        sortDirection={sortItem ? (sortItem.desc ? 'desc' : 'asc') : false}
                        data-testid={`header-${field.id}`}
                      >
                        {field.sortable ? (
                          <Tooltip title={t('table.sortHint')} enterDelay={800}>
                            <TableSortLabel
                              active={sortItem !== undefined}
                              direction={sortItem?.desc ? 'desc' : 'asc'}
                              onClick={(event) => onSort(field, event)}
                              data-testid={`sort-${field.id}`}
                              data-sort={sortItem ? (sortItem.desc ? 'desc' : 'asc') : 'none'}
                              sx={{ maxWidth: '100%', '& .MuiTableSortLabel-icon': { flexShrink: 0 } }}
                            >
                              <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                                {label}
                              </Box>
                              {query.sort.length > 1 && sortItem && (
                                <Box component="sup" sx={{ fontSize: 10, ml: 0.25, color: 'primary.main' }}>
                                  {sortIndex + 1}
                                </Box>
                              )}
                            </TableSortLabel>
                          </Tooltip>
                        ) : (
                          label
                        )}
                        <Box
                          role="separator"
                          aria-orientation="vertical"
                          aria-label={t('table.resize', { column: label })}
                          onMouseDown={header.getResizeHandler()}
                          onTouchStart={header.getResizeHandler()}
                          onDoubleClick={() =>
                            setColumns(
                              columns.map((column) =>
                                column.id === field.id ? { ...column, width: field.width } : column,
                              ),
                            )
                          }
                          data-testid={`resize-${field.id}`}
                          sx={(theme) => ({
                            position: 'absolute',
                            right: 0,
                            top: 8,
                            bottom: 8,
                            width: 7,
                            cursor: 'col-resize',
                            userSelect: 'none',
                            touchAction: 'none',
                            borderRight: `2px solid ${
                              header.column.getIsResizing()
                                ? theme.palette.primary.main
                                : theme.palette.divider
                            }`,
                            '&:hover': { borderRightColor: theme.palette.primary.main },
                          })}
                        />
                      </TableCell>
                    );
                  })}
                </TableRow>
                <TableRow>
                  <TableCell padding="checkbox" sx={{ ...filterCellSx }} />
                  {headers.map((header) => {
                    const field = header.column.columnDef.meta as FieldDef;
                    return (
                      <TableCell key={header.id} sx={filterCellSx}>
                        {field.filters.length > 0 && (
                          <HeaderFilter
                            field={field}
                            label={labelOf(t, field)}
                            values={query.filters[field.id] ?? []}
                            onChange={(values, typing) => setFieldFilter(field.id, values, typing)}
                          />
                        )}
                      </TableCell>
                    );
                  })}
                </TableRow>
              </TableHead>
              <TableBody>
                {initialLoading &&
                  Array.from({ length: 8 }, (_, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                    <TableRow key={index}>
                      <TableCell colSpan={colSpan}>
                        <Skeleton height={22} />
                      </TableCell>
                    </TableRow>
                  ))}
                {!initialLoading && rows.length === 0 && !data.isError && (
                  <TableRow>
                    <TableCell colSpan={colSpan} sx={{ py: 6, textAlign: 'center', color: 'text.secondary' }}>
                      <span data-testid="data-table-empty">{t('table.empty')}</span>
                    </TableCell>
                  </TableRow>
                )}
                {!initialLoading &&
                  table.getRowModel().rows.map((tableRow) => {
                    const row = tableRow.original;
                    const isSelected = selected.has(row.id);
                    return (
                      <TableRow
                        key={tableRow.id}
                        hover
                        selected={isSelected}
                        data-testid="data-table-row"
                        data-id={row.id}
                        onClick={onRowClick ? () => onRowClick(row) : undefined}
                        tabIndex={onRowClick ? 0 : undefined}
                        onKeyDown={
                          onRowClick
                            ? (event) => {
                                if (event.key === 'Enter' && event.target === event.currentTarget)
                                  onRowClick(row);
                              }
                            : undefined
                        }
                        sx={{
                          cursor: onRowClick ? 'pointer' : undefined,
                          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
                        }}
                      >
                        <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                          <Checkbox
                            size="small"
                            checked={isSelected}
                            onChange={() => toggleRow(row)}
                            slotProps={{
                              input: {
                                'aria-label': t('table.selectRow', { item: rowLabel(row) }),
                                'data-testid': `row-select-${row.id}`,
                              } as object,
                            }}
                          />
                        </TableCell>
                        {tableRow.getVisibleCells().map((cell) => {
                          const field = cell.column.columnDef.meta as FieldDef;
                          return (
                            <TableCell
                              key={cell.id}
                              data-field={field.id}
                              sx={{
                                overflow: 'hidden',
                                textOverflow: 'ellipsis',
                                whiteSpace: 'nowrap',
                                maxWidth: field.notes ? NOTES_MAX_WIDTH : undefined,
                                textAlign:
                                  field.type === 'number' || field.type === 'money' ? 'right' : undefined,
                                fontVariantNumeric:
                                  field.type === 'date' || field.type === 'number' || field.type === 'money'
                                    ? 'tabular-nums'
                                    : undefined,
                              }}
                            >
                              <CellContent t={t} field={field} value={cell.getValue()} />
                            </TableCell>
                          );
                        })}
                      </TableRow>
                    );
                  })}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
        {showSelected && (
          <SelectedPanel
            items={selectedRows}
            label={(row) => rowLabel(row as T)}
            secondary={rowSecondary ? (row) => rowSecondary(row as T) : undefined}
            onRemove={(row) => toggleRow(row as T)}
            onClear={() => setSelected(new Map())}
            onClose={() => setShowSelected(false)}
          />
        )}
      </Box>

      {/* Footer: total, page size, pages */}
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          flexWrap: 'wrap',
          gap: 2,
          px: 2,
          py: 0.75,
          borderTop: 1,
          borderColor: 'divider',
          fontSize: 13,
        }}
      >
        <Typography variant="body2" id={`${tableId}-total`} data-testid="table-total" data-total={total}>
          {t('table.total', { count: total })}
          {selected.size > 0 && (
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {' · '}
              {t('table.selectedCount', { count: selected.size })}
            </Box>
          )}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <Box
          component="label"
          sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}
        >
          <Typography variant="body2" component="span">
            {t('table.pageSize')}
          </Typography>
          <NativeSelect
            value={query.size}
            onChange={(event) => setQuery({ ...query, size: Number(event.target.value), page: 0 })}
            inputProps={{ 'data-testid': 'page-size' } as object}
            sx={{ fontSize: 13 }}
            disableUnderline
          >
            {sizeOptions.map((size) => (
              <option key={size} value={size}>
                {sizeLabel(t, size)}
              </option>
            ))}
          </NativeSelect>
        </Box>
        <Typography variant="body2" color="text.secondary" data-testid="table-range">
          {t('table.range', { from, to, total })}
        </Typography>
        <Box sx={{ display: 'flex' }}>
          <IconButton
            size="small"
            aria-label={t('table.firstPage')}
            disabled={query.page === 0}
            onClick={() => goTo(0)}
            data-testid="page-first"
          >
            <FirstPageIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={t('table.previousPage')}
            disabled={query.page === 0}
            onClick={() => goTo(query.page - 1)}
            data-testid="page-prev"
          >
            <ChevronLeftIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={t('table.nextPage')}
            disabled={query.page >= lastPage}
            onClick={() => goTo(query.page + 1)}
            data-testid="page-next"
          >
            <ChevronRightIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            aria-label={t('table.lastPage')}
            disabled={query.page >= lastPage}
            onClick={() => goTo(lastPage)}
            data-testid="page-last"
          >
            <LastPageIcon fontSize="small" />
          </IconButton>
        </Box>
      </Box>

      <ConfirmDialog
        open={confirmDelete}
        title={t('table.deleteTitle')}
        message={t('table.deleteMessage', { count: selected.size })}
        confirmLabel={t('table.deleteConfirm')}
        danger
        busy={deletion.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => deletion.mutate([...selected.keys()])}
      />
    </Paper>
  );
}

const headerCellSx = {
  fontWeight: 600,
  fontSize: 13,
  color: 'text.secondary',
  bgcolor: 'background.paper',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  height: HEADER_HEIGHT,
  py: 0,
} as const;

const filterCellSx = {
  top: HEADER_HEIGHT,
  py: 0.75,
  px: 1,
  bgcolor: (theme: { palette: { mode: string } }) => (theme.palette.mode === 'light' ? '#fafafe' : '#1c1f28'),
} as const;

/** The views menu wired to the views hook and the URL (choose, save, save as new, reset, delete). */
function ViewsMenuSlot({
  views,
  displayed,
  modified,
  isAdmin,
  tableState,
  onShowView,
  onSaved,
}: {
  views: ReturnType<typeof useTableViews>;
  displayed: SavedView | undefined;
  modified: boolean;
  isAdmin: boolean;
  tableState: TableState;
  onShowView: (id: number | null) => void;
  onSaved: (id: number) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  return (
    <ViewsMenu
      views={views.views}
      current={displayed}
      modified={modified}
      isAdmin={isAdmin}
      busy={views.busy}
      onChoose={(item) => {
        onShowView(item.row.id);
        void views.choose(item.row.id).catch(() => undefined);
      }}
      onSaveCurrent={() => {
        if (!displayed) return;
        void views
          .saveInto(displayed, tableState)
          .then(() => {
            notify(t('views.saved'), 'success');
            onSaved(displayed.row.id);
          })
          .catch(() => undefined);
      }}
      onSaveNew={async (title, global) => {
        const id = await views.saveNew(title, global, tableState);
        notify(t('views.created'), 'success');
        onSaved(id);
      }}
      onReset={(item) => {
        void views
          .reset(item)
          .then(() => onShowView(item.row.id))
          .catch(() => undefined);
      }}
      onDelete={async (item) => {
        await views.remove(item);
        notify(t('views.deleted'), 'success');
        onShowView(null);
      }}
    />
  );
}
