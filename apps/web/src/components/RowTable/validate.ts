import { amountFromText, Decimal, formatAmount, issueToFieldError } from '@protocol/contracts';
import i18next from 'i18next';
import type { z } from 'zod';
import { encodeFieldMessage } from '../../lib/errors.ts';
import type { CellErrors, CellType, CellValue, DraftRow, RowTableColumn, TypedRow } from './types.ts';

export const REQUIRED_KEY = 'validation.required';

export function isBlank(value: CellValue | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** The row's own editor of a cell (a text column's `cellType`), or undefined for the column's editor. */
export function cellTypeOf(column: RowTableColumn, row: DraftRow | undefined): CellType | undefined {
  return row && column.type === 'text' ? column.cellType?.(row) : undefined;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** The encoded message of a (non-blank, trimmed) text value that does not fit its row's editor. */
function validateCellType(cellType: CellType, text: string): string | undefined {
  switch (cellType.type) {
    case 'integer': {
      const { min, max } = cellType;
      const whole = /^-?\d+$/.test(text);
      const number = Number(text);
      if (min !== undefined && max !== undefined)
        return whole && number >= min && number <= max
          ? undefined
          : encodeFieldMessage('rowTable.integerRange', { min, max });
      if (!whole) return 'rowTable.integer';
      if (min !== undefined && number < min)
        return encodeFieldMessage('validation.min_value', { value: min });
      if (max !== undefined && number > max)
        return encodeFieldMessage('validation.max_value', { value: max });
      return undefined;
    }
    case 'boolean':
      return text === 'true' || text === 'false' ? undefined : 'rowTable.booleanInvalid';
    case 'email':
      return EMAIL_PATTERN.test(text) ? undefined : 'validation.email';
    case 'url':
      return isWebAddress(text) ? undefined : 'rowTable.urlInvalid';
    case 'select':
      return cellType.options.some((item) => String(item.value) === text) ? undefined : 'validation.invalid';
    default:
      return undefined;
  }
}

/** The value a column sends: numbers as numbers, select values as their option's value, text trimmed. */
export function typedValue(column: RowTableColumn, value: CellValue | undefined): CellValue {
  switch (column.type) {
    case 'number': {
      if (isBlank(value)) return null;
      if (typeof value === 'number') return value;
      const number = Number(String(value).trim().replace(',', '.'));
      return Number.isFinite(number) ? number : null;
    }
    case 'decimal':
      return isBlank(value) ? null : amountFromText(String(value), column.amount);
    case 'select': {
      if (isBlank(value)) return null;
      const option = column.options.find((item) => String(item.value) === String(value));
      return option ? option.value : null;
    }
    case 'boolean':
      return Boolean(value);
    default:
      return value === null || value === undefined ? '' : String(value).trim();
  }
}

export function typedRow(row: DraftRow, columns: RowTableColumn[]): TypedRow {
  const typed: TypedRow = { ...row, id: row.id > 0 ? row.id : null };
  for (const column of columns) typed[column.key] = typedValue(column, row[column.key]);
  return typed;
}

/**
 * The encoded message of one cell's own rules, or undefined when it is valid; with the row, a text
 * column's `cellType` adds the rules of the row's editor.
 */
export function validateCell(
  column: RowTableColumn,
  value: CellValue | undefined,
  row?: DraftRow,
): string | undefined {
  if (isBlank(value)) return column.required ? REQUIRED_KEY : undefined;
  switch (column.type) {
    case 'text': {
      const text = String(value).trim();
      if (column.minLength !== undefined && text.length < column.minLength)
        return encodeFieldMessage('validation.min_length', { length: column.minLength });
      if (column.maxLength !== undefined && text.length > column.maxLength)
        return encodeFieldMessage('validation.max_length', { length: column.maxLength });
      const cellType = cellTypeOf(column, row);
      return cellType ? validateCellType(cellType, text) : undefined;
    }
    case 'number': {
      const raw = typeof value === 'number' ? String(value) : String(value).trim().replace(',', '.');
      const number = Number(raw);
      if (!/^[-+]?\d+(\.\d+)?$/.test(raw) || !Number.isFinite(number)) return 'validation.invalid';
      if (!Number.isInteger(number)) return 'validation.invalid';
      if (column.min !== undefined && number < column.min)
        return encodeFieldMessage('validation.min_value', { value: column.min });
      if (column.max !== undefined && number > column.max)
        return encodeFieldMessage('validation.max_value', { value: column.max });
      return undefined;
    }
    case 'decimal': {
      const amount = amountFromText(String(value), column.amount);
      if (amount === null) return 'validation.decimal_number';
      const language = i18next.language === 'en' ? 'en' : 'el';
      if (column.min !== undefined && new Decimal(amount).lessThan(column.min))
        return encodeFieldMessage('validation.min_value', {
          value: formatAmount(column.min, column.amount, language),
        });
      if (column.max !== undefined && new Decimal(amount).greaterThan(column.max))
        return encodeFieldMessage('validation.max_value', {
          value: formatAmount(column.max, column.amount, language),
        });
      return undefined;
    }
    case 'select':
      return column.options.some((item) => String(item.value) === String(value))
        ? undefined
        : 'validation.invalid';
    default:
      return undefined;
  }
}

export interface ValidationResult {
  errors: CellErrors;
  /** Cells with a required value missing. */
  missing: number;
  /** Cells with a wrong value. */
  invalid: number;
}

/** Checks every cell by its column's rules, then each payload by the contracts schema (if any). */
export function validateRows(
  rows: DraftRow[],
  columns: RowTableColumn[],
  toPayload: (row: TypedRow) => unknown,
  rowSchema?: z.ZodType,
): ValidationResult {
  const result: ValidationResult = { errors: {}, missing: 0, invalid: 0 };
  const add = (rowId: number, key: string, message: string) => {
    const cells = result.errors[rowId] ?? {};
    if (cells[key]) return;
    cells[key] = message;
    result.errors[rowId] = cells;
    if (message === REQUIRED_KEY) result.missing += 1;
    else result.invalid += 1;
  };
  for (const row of rows) {
    let rowHasErrors = false;
    for (const column of columns) {
      const message = validateCell(column, row[column.key], row);
      if (message) {
        add(row.id, column.key, message);
        rowHasErrors = true;
      }
    }
    if (rowHasErrors || !rowSchema) continue;
    const parsed = rowSchema.safeParse(toPayload(typedRow(row, columns)));
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) {
      const fieldError = issueToFieldError(issue);
      const key = String(issue.path[0] ?? '');
      const column = columns.find((item) => item.key === key) ?? columns[0];
      if (column) add(row.id, column.key, encodeFieldMessage(fieldError.key, fieldError.params));
    }
  }
  return result;
}

/**
 * The row as the table shows it: decimal columns written in the page's language (the server sends
 * "1135.30", the cell reads "1.135,30" in Greek).
 */
export function shownRow(row: DraftRow, columns: RowTableColumn[], language: 'el' | 'en'): DraftRow {
  const shown: DraftRow = { ...row };
  for (const column of columns) {
    const value = row[column.key];
    if (column.type === 'decimal' && !isBlank(value))
      shown[column.key] = formatAmount(String(value), column.amount, language);
  }
  return shown;
}

/** Same row content (the values the user can change), for the unsaved-changes marker. */
export function sameRow(a: DraftRow, b: DraftRow, columns: RowTableColumn[]): boolean {
  return columns.every((column) => {
    const left = a[column.key];
    const right = b[column.key];
    if (column.type === 'boolean') return Boolean(left) === Boolean(right);
    if (column.type === 'decimal') return typedValue(column, left) === typedValue(column, right);
    return String(left ?? '') === String(right ?? '');
  });
}
