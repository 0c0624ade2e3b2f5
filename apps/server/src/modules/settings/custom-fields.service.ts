import type { CustomFieldDefinition, CustomFieldEntity, CustomFieldType } from '@protocol/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { customFields, customTables, customTableValues } from './settings-tables.schema.ts';

/** The company's custom fields of an entity, in their order, select fields with their choices. */
export async function loadCustomFields(
  db: Db | Tx,
  companyId: number,
  entity: CustomFieldEntity,
): Promise<CustomFieldDefinition[]> {
  const rows = await db
    .select({
      key: customFields.key,
      labelEl: customFields.labelEl,
      labelEn: customFields.labelEn,
      type: customFields.type,
      required: customFields.required,
      customTableId: customFields.customTableId,
    })
    .from(customFields)
    .where(and(eq(customFields.companyId, companyId), eq(customFields.entity, entity)))
    .orderBy(asc(customFields.order), asc(customFields.id));
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
