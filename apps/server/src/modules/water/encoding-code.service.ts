import {
  type EncodingCodeDefinition,
  encodingLevelTypes,
  type LevelLookup,
  type LevelLookupItem,
} from '@protocol/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { badRequest } from '../../platform/errors.ts';
import { addresses, customFields, departments } from '../settings/settings-tables.schema.ts';
import {
  waterAreas,
  waterBuildings,
  waterEncodingCodes,
  waterRoutes,
  waterSectors,
} from './parametrics.schema.ts';

const definitionColumns = {
  levels: waterEncodingCodes.levels,
  level1: waterEncodingCodes.level1,
  level2: waterEncodingCodes.level2,
  level3: waterEncodingCodes.level3,
  level4: waterEncodingCodes.level4,
  level5: waterEncodingCodes.level5,
  leveltable1: waterEncodingCodes.leveltable1,
  leveltable2: waterEncodingCodes.leveltable2,
  leveltable3: waterEncodingCodes.leveltable3,
  leveltable4: waterEncodingCodes.leveltable4,
  leveltable5: waterEncodingCodes.leveltable5,
  cfieldid1: waterEncodingCodes.cfieldid1,
  cfieldid2: waterEncodingCodes.cfieldid2,
  cfieldid3: waterEncodingCodes.cfieldid3,
  cfieldid4: waterEncodingCodes.cfieldid4,
  cfieldid5: waterEncodingCodes.cfieldid5,
  separator: waterEncodingCodes.separator,
};

/** The company's code definition, or null while none is defined. */
export async function encodingDefinition(
  db: Db | Tx,
  companyId: number,
): Promise<EncodingCodeDefinition | null> {
  const [row] = await db
    .select(definitionColumns)
    .from(waterEncodingCodes)
    .where(eq(waterEncodingCodes.companyId, companyId));
  return (row as EncodingCodeDefinition | undefined) ?? null;
}

/** Levels past `levels` are cleared, and the last level has no type: it is the consumer's number. */
function normalised(def: EncodingCodeDefinition): EncodingCodeDefinition {
  const flat = { ...def } as Record<string, unknown>;
  for (let n = 1; n <= 5; n++) {
    if (n > def.levels) flat[`level${n}`] = null;
    if (n >= def.levels) flat[`leveltable${n}`] = null;
    if (n >= def.levels || flat[`leveltable${n}`] !== encodingLevelTypes.customField)
      flat[`cfieldid${n}`] = null;
  }
  return flat as EncodingCodeDefinition;
}

/**
 * Saves the definition. A custom field level names a consumers' custom field of the company.
 * `hasConsumers` refuses a change of the code's shape once codes exist (they would stop fitting).
 */
export async function saveEncodingDefinition(
  db: Db,
  principal: Principal,
  companyId: number,
  input: EncodingCodeDefinition,
  requestId: string,
  hasConsumers: (tx: Tx) => Promise<boolean>,
): Promise<EncodingCodeDefinition> {
  const def = normalised(input);
  const flat = def as unknown as Record<string, number | null>;
  return db.transaction(async (tx) => {
    const errors = [];
    for (let n = 1; n < def.levels; n++) {
      const fieldId = flat[`cfieldid${n}`];
      if (fieldId === null || fieldId === undefined) continue;
      const [field] = await tx
        .select({ id: customFields.id })
        .from(customFields)
        .where(
          and(
            eq(customFields.id, fieldId),
            eq(customFields.companyId, companyId),
            eq(customFields.entity, 'consumers'),
          ),
        );
      if (!field) errors.push({ field: `cfieldid${n}`, key: 'validation.invalid', params: {} });
    }
    if (errors.length > 0) throw badRequest(errors);
    const before = await encodingDefinition(tx, companyId);
    if (before && (await hasConsumers(tx)) && shapeOf(before) !== shapeOf(def)) {
      throw badRequest([{ field: 'levels', key: 'validation.encoding_in_use', params: {} }]);
    }
    await tx
      .insert(waterEncodingCodes)
      .values({ companyId, ...def, createuser: principal.username })
      .onConflictDoUpdate({
        target: waterEncodingCodes.companyId,
        set: { ...def, ...updatedBy(principal.username) },
      });
    await recordAudit(tx, {
      entity: 'water.encodingCode',
      entityId: companyId,
      action: before ? 'update' : 'create',
      companyId,
      user: principal,
      requestId,
    });
    return def;
  });
}

/** What a stored code depends on: the number of levels, their lengths and the separator. */
const shapeOf = (def: EncodingCodeDefinition) =>
  JSON.stringify([def.levels, def.level1, def.level2, def.level3, def.level4, def.level5, def.separator]);

/** The values one level type may take (spec §7 lookups), the active ones, in code order. */
export async function levelLookup(
  db: Db | Tx,
  companyId: number,
  lookup: LevelLookup,
  sectorId?: number,
): Promise<LevelLookupItem[]> {
  switch (lookup) {
    case 'sectors':
    case 'areas':
    case 'buildings': {
      const t = lookup === 'sectors' ? waterSectors : lookup === 'areas' ? waterAreas : waterBuildings;
      return db
        .select({ id: t.id, code: t.code, descr: t.description, sectorId: sql<null>`NULL::int` })
        .from(t)
        .where(and(eq(t.companyId, companyId), eq(t.active, true)))
        .orderBy(asc(t.code));
    }
    case 'routes':
      return db
        .select({
          id: waterRoutes.id,
          code: waterRoutes.code,
          descr: waterRoutes.description,
          sectorId: waterRoutes.sectorId,
        })
        .from(waterRoutes)
        .where(
          and(
            eq(waterRoutes.companyId, companyId),
            eq(waterRoutes.active, true),
            sectorId === undefined ? undefined : eq(waterRoutes.sectorId, sectorId),
          ),
        )
        .orderBy(asc(waterRoutes.readingOrder), asc(waterRoutes.code));
    case 'departments':
      return db
        .select({
          id: departments.id,
          code: departments.code,
          descr: departments.description,
          sectorId: sql<null>`NULL::int`,
        })
        .from(departments)
        .where(and(eq(departments.companyId, companyId), eq(departments.active, true)))
        .orderBy(asc(departments.code));
    case 'addresses':
      // Addresses have no code of their own: the part of the code is the address's number.
      return db
        .select({
          id: addresses.id,
          code: sql<string>`${addresses.id}::text`,
          descr: sql<string>`concat_ws(' ', ${addresses.street}, ${addresses.number}, ${addresses.area})`,
          sectorId: sql<null>`NULL::int`,
        })
        .from(addresses)
        .where(eq(addresses.companyId, companyId))
        .orderBy(asc(addresses.street), asc(addresses.number));
    default:
      return [];
  }
}
