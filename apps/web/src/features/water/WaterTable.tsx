import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { wireDate } from '../../components/form/dates.ts';
import {
  type DraftRow,
  RowTable,
  type RowTableColumn,
  type TypedRow,
} from '../../components/RowTable/index.ts';
import type { CellValue } from '../../components/RowTable/types.ts';
import { formatDate } from '../../lib/dates.ts';
import { usePermission } from '../../lib/permissions.ts';

export interface WaterTableProps<T extends { id: number }> {
  /** GET and POST (row-table save) address, without the company. */
  path: string;
  title: string;
  columns: RowTableColumn[];
  itemSchema: z.ZodType<T>;
  rowSchema: z.ZodType;
  newRow: () => Record<string, CellValue>;
  descriptionColumn?: string;
  /** Text columns holding days: shown and typed DD/MM/YYYY, sent YYYY-MM-DD. */
  dateColumns?: readonly string[];
}

/** A water parametric table on the RowTable: the item's fields are the columns, saved as typed. */
export function WaterTable<T extends { id: number }>({
  path,
  title,
  columns,
  itemSchema,
  rowSchema,
  newRow,
  descriptionColumn = 'description',
  dateColumns = [],
}: WaterTableProps<T>) {
  const { t } = useTranslation();
  // The server refuses these saves too; here the table says so before anyone types.
  const writable = usePermission('settings:write');
  const listSchema = useMemo(() => z.array(itemSchema), [itemSchema]);
  const parse = useCallback((data: unknown) => listSchema.parse(data), [listSchema]);
  const fromServer = useCallback(
    (item: T): DraftRow => {
      const record = item as unknown as Record<string, unknown>;
      const draft: DraftRow = { id: item.id };
      for (const column of columns) {
        const value = record[column.key];
        draft[column.key] = dateColumns.includes(column.key)
          ? formatDate(value as string | null)
          : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
            ? value
            : null;
      }
      return draft;
    },
    [columns, dateColumns],
  );
  const toPayload = useCallback(
    (row: TypedRow) => {
      const out: Record<string, unknown> = { id: row.id };
      for (const column of columns) {
        const typed = row[column.key] ?? null;
        const value = dateColumns.includes(column.key) && typeof typed === 'string' ? wireDate(typed) : typed;
        // Ids go back as numbers; an empty optional text (a date, a diameter) as null.
        out[column.key] =
          column.type === 'select' && value !== null
            ? Number(value)
            : column.type === 'text' && !column.required && value === ''
              ? null
              : value;
      }
      return out;
    },
    [columns, dateColumns],
  );
  return (
    <RowTable<T>
      path={path}
      title={title}
      columns={columns}
      fromServer={fromServer}
      toPayload={toPayload}
      parse={parse}
      rowSchema={rowSchema}
      newRow={newRow}
      descriptionColumn={descriptionColumn}
      readOnly={writable ? undefined : t('rowTable.readOnly')}
    />
  );
}
