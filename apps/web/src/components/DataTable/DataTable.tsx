import './i18n/index.ts';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableContainer from '@mui/material/TableContainer';
import { type EntityCatalog, type ExportFormat, type Page, userKinds } from '@protocol/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { api } from '../../lib/api.ts';
import { useUser } from '../../lib/currentUser.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { stripLang } from '../../lib/lang.ts';
import { useLang } from '../../lib/language.tsx';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { useNotify } from '../Notifier.tsx';
import { RetryAlert } from '../RetryAlert.tsx';
import { ActionBar, type CustomExport } from './ActionBar.tsx';
import { ColumnChooser } from './ColumnChooser.tsx';
import type { Row } from './cells.tsx';
import { downloadExport, downloadExportAddress, openPrint } from './exporting.ts';
import { rememberList } from './listMemory.ts';
import { Pagination } from './Pagination.tsx';
import { QuickSearch } from './QuickSearch.tsx';
import { SelectedPanel } from './SelectedPanel.tsx';
import { apiParams, fieldOf, withQuery } from './state.ts';
import { TableHeader } from './TableHeader.tsx';
import { TableRows } from './TableRows.tsx';
import { SELECT_WIDTH, useColumnModel } from './useColumnModel.ts';
import { useListState } from './useListState.ts';
import { useSelection } from './useSelection.ts';
import { ViewsMenuSlot } from './ViewsMenuSlot.tsx';

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

/**
 * The one list component (spec §2, §4): server-side paging, sorting and header filters, saved
 * views, column chooser, selection with its panel, exports and print; its state lives in the URL.
 * The parts: useListState (views, URL), useColumnModel (TanStack Table), useSelection, TableHeader
 * (sorting, resizing, filters), TableRows, Pagination, ViewsMenuSlot.
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

  const {
    views,
    url,
    displayed,
    modified,
    query,
    columns,
    setColumns,
    tableState,
    setQuery,
    setSearch,
    setFieldFilter,
  } = useListState({ catalog, metaKey, metaUrl });

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

  const selection = useSelection(rows, props.onSelectionChange);
  const { selected } = selection;
  const [showSelected, setShowSelected] = useState(false);

  // ----- actions -----
  const [confirmDelete, setConfirmDelete] = useState(false);
  const deletion = useMutation({
    mutationFn: (ids: T['id'][]) => (onDelete ? onDelete(ids) : Promise.resolve()),
    onSuccess: (_answer, ids) => {
      notify(t('table.deleted', { count: ids.length }), 'success');
      selection.clear();
      void data.refetch();
    },
    onSettled: () => setConfirmDelete(false),
  });

  // The company's own exports of this list (spec §7 getForEntity 'custom'), named by the list's address.
  const [listPath = ''] = searchUrl.split('?', 1);
  const offered = useQuery({
    queryKey: ['exports', listPath],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ entityName: listPath });
      return api.get<{ custom: CustomExport[] }>(`/api/export/getForEntity?${params.toString()}`, { signal });
    },
    staleTime: 60_000,
    // A list no export knows (a screen's own page loader) simply has no custom exports.
    retry: false,
  });

  const [exporting, setExporting] = useState<ExportFormat | 'custom' | null>(null);
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
  const runCustomExport = (entry: CustomExport) => {
    setExporting('custom');
    downloadExportAddress(entry.uri)
      .then(() => notify(t('export.done'), 'success'))
      .catch((failure: unknown) => notify(errorMessage(t, failure), 'error'))
      .finally(() => setExporting(null));
  };

  const { table, headers, tableWidth } = useColumnModel({ catalog, rows, columns, setColumns });
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
          customExports={offered.data?.custom ?? []}
          onCustomExport={runCustomExport}
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
              <TableHeader
                headers={headers}
                query={query}
                setQuery={setQuery}
                setFieldFilter={setFieldFilter}
                columns={columns}
                setColumns={setColumns}
                allOnPage={selection.allOnPage}
                pageSelected={selection.pageSelected}
                onTogglePage={selection.togglePage}
                rowCount={rows.length}
              />
              <TableRows
                table={table}
                colSpan={colSpan}
                initialLoading={initialLoading}
                failed={data.isError}
                selection={selection}
                onRowClick={onRowClick}
                rowLabel={rowLabel}
              />
            </Table>
          </TableContainer>
        </Box>
        {showSelected && (
          <SelectedPanel
            items={selectedRows}
            label={(row) => rowLabel(row as T)}
            secondary={rowSecondary ? (row) => rowSecondary(row as T) : undefined}
            onRemove={(row) => selection.toggleRow(row as T)}
            onClear={selection.clear}
            onClose={() => setShowSelected(false)}
          />
        )}
      </Box>

      <Pagination
        query={query}
        setQuery={setQuery}
        total={total}
        totalEstimated={data.data?.totalEstimated === true}
        totalPages={totalPages}
        selectedCount={selected.size}
        totalId={`${tableId}-total`}
      />

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
