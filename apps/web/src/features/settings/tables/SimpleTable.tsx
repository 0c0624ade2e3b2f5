import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  type CellErrors,
  type CellValue,
  type DraftRow,
  RowTable,
  type RowTableColumn,
  type TypedRow,
} from '../../../components/RowTable/index.ts';
import type { ApiRequestError } from '../../../lib/api.ts';
import { useUser } from '../../../lib/currentUser.tsx';
import { can } from '../../../lib/permissions.ts';

export interface SimpleTableProps<T extends { id: number }> {
  /** GET and POST (row-table save) address. */
  path: string;
  title: string;
  columns: RowTableColumn[];
  /** The GET item schema from the contracts. */
  itemSchema: z.ZodType<T>;
  /** The POST row schema from the contracts: its issues mark the cells. */
  rowSchema: z.ZodType;
  newRow: () => Record<string, CellValue>;
  descriptionColumn?: string;
  /** Draft row of an item; default: the columns' values. */
  fromServer?: (item: T) => DraftRow;
  /** Payload of a typed row; default: the id and the columns' values. */
  toPayload?: (row: TypedRow) => unknown;
  /** Columns whose values must be unique: a 409 names_not_unique marks the rows that share them. */
  uniqueColumns?: string[];
  queryKey?: readonly unknown[];
  /** Shared by all companies (banks, VAT): only a super administrator changes it. */
  shared?: boolean;
}

const comparable = (value: CellValue | undefined) =>
  String(value ?? '')
    .trim()
    .toLocaleLowerCase('el');

/** A settings table on the RowTable: the item's fields are the columns, saved as they are typed. */
export function SimpleTable<T extends { id: number }>({
  path,
  title,
  columns,
  itemSchema,
  rowSchema,
  newRow,
  descriptionColumn,
  fromServer,
  toPayload,
  uniqueColumns,
  queryKey,
  shared,
}: SimpleTableProps<T>) {
  const { t } = useTranslation();
  const user = useUser();
  // The server refuses these saves too; here the table says so before anyone types.
  const readOnly = shared
    ? user.superAdmin
      ? undefined
      : t('rowTable.sharedReadOnly')
    : can(user, 'settings:write')
      ? undefined
      : t('rowTable.readOnly');
  const listSchema = useMemo(() => z.array(itemSchema), [itemSchema]);
  const parse = useCallback((data: unknown) => listSchema.parse(data), [listSchema]);
  const toDraft = useCallback(
    (item: T): DraftRow => {
      if (fromServer) return fromServer(item);
      const record = item as unknown as Record<string, unknown>;
      const draft: DraftRow = { id: item.id };
      for (const column of columns) {
        const value = record[column.key];
        draft[column.key] =
          typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
      }
      return draft;
    },
    [columns, fromServer],
  );
  const payload = useCallback(
    (row: TypedRow) => {
      if (toPayload) return toPayload(row);
      const out: Record<string, unknown> = { id: row.id };
      for (const column of columns) out[column.key] = row[column.key] ?? null;
      return out;
    },
    [columns, toPayload],
  );
  const serverErrorCells = useCallback(
    (error: ApiRequestError, rows: DraftRow[]): CellErrors | undefined => {
      if (error.key !== 'error.names_not_unique' || !uniqueColumns) return undefined;
      const marked: CellErrors = {};
      for (const column of uniqueColumns) {
        const groups = new Map<string, DraftRow[]>();
        for (const row of rows) {
          const key = comparable(row[column]);
          if (key) groups.set(key, [...(groups.get(key) ?? []), row]);
        }
        for (const group of groups.values()) {
          if (group.length < 2) continue;
          for (const row of group) marked[row.id] = { ...marked[row.id], [column]: 'settings.duplicate' };
        }
      }
      return Object.keys(marked).length > 0 ? marked : undefined;
    },
    [uniqueColumns],
  );
  return (
    <RowTable<T>
      path={path}
      title={title}
      columns={columns}
      fromServer={toDraft}
      toPayload={payload}
      parse={parse}
      rowSchema={rowSchema}
      newRow={newRow}
      descriptionColumn={descriptionColumn}
      serverErrorCells={serverErrorCells}
      queryKey={queryKey}
      readOnly={readOnly}
    />
  );
}
