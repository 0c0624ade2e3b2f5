import type { AmountKind } from '@protocol/contracts';
import type { z } from 'zod';
import type { ApiRequestError } from '../../lib/api.ts';

/** What a cell holds while it is edited: text and numbers as typed, switches as booleans. */
export type CellValue = string | number | boolean | null;

/** A row being edited: `id` is the server's id, or a temporary negative one (-1, -2, …) for new rows. */
export type DraftRow = { id: number } & Record<string, CellValue>;

/** A row as it is sent: ids of new rows are null (spec §4 'Row tables'), values typed per column. */
export type TypedRow = { id: number | null } & Record<string, CellValue>;

export interface RowTableOption {
  value: string | number;
  /** Translated label. */
  label: string;
}

interface ColumnBase {
  /** The field of the draft row; also names the cell's test id: `cell-<key>-<rowId>`. */
  key: string;
  /** Translated header. */
  label: string;
  required?: boolean;
  /** Width of the column (px or any CSS width). */
  width?: number | string;
  /** Translated hint under the header (a tooltip). */
  hint?: string;
}

/**
 * The editor of one cell of a text column, chosen per row (e.g. by the setting the row names).
 * The value stays text: integers as typed, booleans as 'true' / 'false', select values as strings.
 */
export type CellType =
  | { type: 'text'; placeholder?: string }
  | { type: 'integer'; min?: number; max?: number; placeholder?: string }
  | { type: 'boolean' }
  | { type: 'email'; placeholder?: string }
  | { type: 'url'; placeholder?: string }
  | { type: 'select'; options: RowTableOption[] };

export interface TextColumn extends ColumnBase {
  type: 'text';
  minLength?: number;
  maxLength?: number;
  placeholder?: string;
  /**
   * The editor of the row's cell, and the rules it is checked by (besides min/maxLength);
   * undefined (or no function) keeps the plain text input. Re-evaluated whenever the row changes.
   */
  cellType?: (row: DraftRow) => CellType | undefined;
  /** A translated line under the cell, from its row (e.g. what the setting the row names is). */
  note?: (row: DraftRow) => string | undefined;
}

/** A whole number (counts, days, codes); amounts and rates are decimal columns. */
export interface NumberColumn extends ColumnBase {
  type: 'number';
  min?: number;
  max?: number;
}

/**
 * An amount, rate or quantity: shown and typed in the page's language ("1.135,30" in Greek), sent as
 * the decimal string of its kind's scale ("1135.30"), never through a binary float.
 */
export interface DecimalColumn extends ColumnBase {
  type: 'decimal';
  amount: AmountKind;
  /** Bounds as decimal strings ("0", "100"). */
  min?: string;
  max?: string;
}

export interface SelectColumn extends ColumnBase {
  type: 'select';
  options: RowTableOption[];
}

export interface BooleanColumn extends ColumnBase {
  type: 'boolean';
}

export type RowTableColumn = TextColumn | NumberColumn | DecimalColumn | SelectColumn | BooleanColumn;

/** Encoded field messages (lib/errors.ts encodeFieldMessage) per row id and column key. */
export type CellErrors = Record<number, Record<string, string>>;

export interface RowTableProps<T> {
  /** GET loads the rows from it; POST saves the whole table to it. */
  path: string;
  columns: RowTableColumn[];
  /** The server's item as a draft row (flatten nested references: `booktype.id` → `booktype`). */
  fromServer: (item: T) => DraftRow;
  /** A typed row (new rows with id null) as the server expects it in the POST array. */
  toPayload: (row: TypedRow) => unknown;
  /** Checks the GET answer (a contracts schema); the raw answer is used when absent. */
  parse?: (data: unknown) => T[];
  /** Checks each payload row (a contracts schema, e.g. protocolBookRowSchema); issues mark their cells. */
  rowSchema?: z.ZodType;
  /** Values of a new row (its id is given by the table). */
  newRow: () => Record<string, CellValue>;
  /** Rows whose description is empty are left out of the save, after a confirmation (spec §5). */
  descriptionColumn?: string;
  /** Runs after validation; returning false or throwing aborts the save (spec §5 'Row table save'). */
  preSave?: (rows: TypedRow[]) => boolean | Promise<boolean>;
  /** Cells to mark after a failed save (e.g. the rows a uniqueness error is about). */
  serverErrorCells?: (error: ApiRequestError, rows: DraftRow[]) => CellErrors | undefined;
  /** Translated title shown in the table's toolbar. */
  title?: string;
  /** Query key prefix (defaults to the path). */
  queryKey?: readonly unknown[];
  /** Why the reader may not change the table (shown above it); without it the table is editable. */
  readOnly?: string;
}
