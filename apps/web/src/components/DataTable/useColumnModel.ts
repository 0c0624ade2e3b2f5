import type { EntityCatalog } from '@protocol/contracts';
import {
  type ColumnDef,
  type ColumnSizingState,
  getCoreRowModel,
  type Updater,
  useReactTable,
} from '@tanstack/react-table';
import { useMemo } from 'react';
import { NOTES_MAX_WIDTH, type Row } from './cells.tsx';
import { type ColumnSetting, fieldOf } from './state.ts';

/** The width of the selection column. */
export const SELECT_WIDTH = 48;

/**
 * The table model (TanStack Table) over the server's page: column order, visibility and sizing come
 * from the column settings, and a resize writes them back.
 */
export function useColumnModel<T extends Row>({
  catalog,
  rows,
  columns,
  setColumns,
}: {
  catalog: EntityCatalog;
  rows: T[];
  columns: ColumnSetting[];
  setColumns: (next: ColumnSetting[]) => void;
}) {
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
  return { table, headers, tableWidth: SELECT_WIDTH + table.getTotalSize() };
}
