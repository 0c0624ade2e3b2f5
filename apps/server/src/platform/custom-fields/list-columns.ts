import { type CustomFieldDefinition, type CustomFieldValues, customColumnId } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FieldColumn, FieldColumns } from '../list/sql.ts';

/** What a list needs to offer an entity's custom fields as columns. */
export interface CustomFieldsOfList {
  /** The entity table's custom fields column (customFieldsColumn()). */
  column: AnyPgColumn;
  definitions(companyId: number): Promise<CustomFieldDefinition[]>;
}

/**
 * The SQL of one custom field in a list: a jsonb expression (no index yet). A value of another JSON
 * type than the field's (left by a change of the field's type) reads as null, never as an error.
 */
function columnOf(jsonb: AnyPgColumn, definition: CustomFieldDefinition): FieldColumn {
  const key = definition.key;
  const typed = (jsonType: string, cast: string) =>
    sql`(CASE WHEN jsonb_typeof(${jsonb} -> ${key}::text) = ${jsonType} THEN (${jsonb} ->> ${key}::text)::${sql.raw(cast)} END)`;
  switch (definition.type) {
    case 'number':
    case 'select':
      return typed('number', 'numeric');
    case 'boolean':
      return typed('boolean', 'boolean');
    case 'date':
      return {
        day: sql`(CASE WHEN (${jsonb} ->> ${key}::text) ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN ${jsonb} ->> ${key}::text END)`,
      };
    default: {
      const text = sql`(${jsonb} ->> ${key}::text)`;
      return { value: text, normalized: sql`norm_text(${text})` };
    }
  }
}

/** The list columns `custom.<key>` of the company's custom fields. */
export function customFieldColumns(jsonb: AnyPgColumn, definitions: CustomFieldDefinition[]): FieldColumns {
  return Object.fromEntries(definitions.map((d) => [customColumnId(d.key), columnOf(jsonb, d)]));
}

/** Rows as the list answers them: the `customFields` object read into one `custom.<key>` cell per field. */
export function customFieldCells(
  rows: Record<string, unknown>[],
  definitions: CustomFieldDefinition[],
): Record<string, unknown>[] {
  return rows.map(({ customFields, ...row }) => {
    const values = (customFields ?? {}) as CustomFieldValues;
    for (const { key } of definitions) row[customColumnId(key)] = values[key] ?? null;
    return row;
  });
}
