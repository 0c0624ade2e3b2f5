import type { CustomFieldDefinition, CustomFieldEntity, CustomFieldType } from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { customFields, customTables, customTableValues } from './settings-tables.schema.ts';

/** The definitions of a company's custom fields of an entity: read by every page of their list. */
const definitionsOf = preparedStatement(
  () => sql`SELECT ${customFields.key} AS "key", ${customFields.labelEl} AS "labelEl",
      ${customFields.labelEn} AS "labelEn", ${customFields.type} AS "type",
      ${customFields.required} AS "required", ${customFields.customTableId} AS "customTableId"
    FROM ${customFields}
    WHERE ${customFields.companyId} = ${sql.placeholder('companyId')} AND ${customFields.entity} = ${sql.placeholder('entity')}
    ORDER BY ${customFields.order}, ${customFields.id}`,
);

/** The company's custom fields of an entity, in their order, select fields with their choices. */
export async function loadCustomFields(
  db: Db | Tx,
  companyId: number,
  entity: CustomFieldEntity,
): Promise<CustomFieldDefinition[]> {
  const rows = await definitionsOf<{
    key: string;
    labelEl: string;
    labelEn: string;
    type: string;
    required: boolean;
    customTableId: number | null;
  }>(db, { companyId, entity });
  const tableIds = [...new Set(rows.map((r) => r.customTableId).filter((id): id is number => id !== null))];
  // Only values of the company's own tables: a definition can never offer another company's values.
  const values =
    tableIds.length === 0
      ? []
      : await db
          .select({
            id: customTableValues.id,
            description: customTableValues.description,
            customTableId: customTableValues.customTableId,
          })
          .from(customTableValues)
          .innerJoin(customTables, eq(customTables.id, customTableValues.customTableId))
          .where(
            and(inArray(customTableValues.customTableId, tableIds), eq(customTables.companyId, companyId)),
          )
          .orderBy(asc(customTableValues.order), asc(customTableValues.id));
  return rows.map(({ customTableId, ...row }) => ({
    ...row,
    type: row.type as CustomFieldType,
    choices:
      row.type === 'select'
        ? values
            .filter((value) => value.customTableId === customTableId)
            .map(({ id, description }) => ({ id, description }))
        : [],
  }));
}
