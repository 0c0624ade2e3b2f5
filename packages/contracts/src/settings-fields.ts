import { z } from 'zod';
import { idSchema } from './db.ts';
import type { FieldDef } from './list.ts';

/** What the settings tables' contracts share: row ids, required text, and their catalog fields. */

/** A row of a row-table save: null for a new row. */
export const rowId = idSchema.nullable();
export const requiredText = (max: number) => z.string().trim().min(1).max(max);

/** A catalog text field: sortable, filterable, searchable, exported. */
export const textField = (
  id: string,
  labelKey: string,
  width = 220,
  extra: Partial<FieldDef> = {},
): FieldDef => ({
  id,
  type: 'text',
  labelKey,
  sortable: true,
  filters: ['contains', 'eq'],
  exportable: true,
  searchable: true,
  width,
  ...extra,
});

export const numberField = (
  id: string,
  labelKey: string,
  width = 110,
  extra: Partial<FieldDef> = {},
): FieldDef => ({
  id,
  type: 'number',
  labelKey,
  sortable: true,
  filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
  exportable: true,
  width,
  ...extra,
});

export const booleanField = (id: string, labelKey: string, width = 100): FieldDef => ({
  id,
  type: 'boolean',
  labelKey,
  sortable: true,
  filters: ['eq'],
  exportable: true,
  width,
});
