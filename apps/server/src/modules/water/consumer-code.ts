import {
  type EncodingCodeDefinition,
  encodingLevels,
  encodingLevelTypes,
  type FieldError,
  nextLastPart,
  previewCode,
  splitCode,
} from '@protocol/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { addresses, departments } from '../settings/settings-tables.schema.ts';
import { waterConsumers } from './consumers.schema.ts';
import { encodingDefinition } from './encoding-code.service.ts';
import { waterAreas, waterBuildings, waterRoutes, waterSectors } from './parametrics.schema.ts';

/** The catalog key of a code that exists or does not pass the check (spec §8). */
export const CODE_NOT_ALLOWED = 'validation.backend.consumers.code_not_allowed';

/** The ids a code was built from, by level type. */
export interface CodeLevels {
  sectorId: number | null;
  routeId: number | null;
  departmentId: number | null;
  areaId: number | null;
  addressId: number | null;
  buildingId: number | null;
}

export async function requireDefinition(db: Db | Tx, companyId: number): Promise<EncodingCodeDefinition> {
  const def = await encodingDefinition(db, companyId);
  if (!def) throw badRequest([{ field: 'parts', key: 'validation.encoding_undefined', params: {} }]);
  return def;
}

type CodedTable = typeof waterSectors | typeof waterAreas | typeof waterBuildings | typeof departments;

/** The rows of the level lookups that a set of codes names, by their code (addresses by id). */
export interface LevelLookups {
  sectors: Map<string, number>;
  routes: Map<string, { id: number; sectorId: number }[]>;
  departments: Map<string, number>;
  areas: Map<string, number>;
  buildings: Map<string, number>;
  addresses: Set<number>;
}

/** Values per query: well under PostgreSQL's 65,535 parameters of one statement. */
export const LOOKUP_BATCH = 5000;

async function inBatches<T>(values: readonly T[], query: (batch: T[]) => Promise<void>) {
  for (let at = 0; at < values.length; at += LOOKUP_BATCH) await query(values.slice(at, at + LOOKUP_BATCH));
}

/** A level's parts as typed, trimmed as the code keeps them (the last part without leading zeros). */
function trimParts(parts: readonly string[], levels: number) {
  return parts.map((p, i) => (i === levels - 1 ? p.trim().replace(/^0+(?=\d)/, '') : p.trim()));
}

/**
 * The lookup rows every code of `partsList` names, a few queries whatever the number of codes (an
 * import checks 100,000 rows against them in memory).
 */
export async function loadLevelLookups(
  tx: Db | Tx,
  companyId: number,
  def: EncodingCodeDefinition,
  partsList: readonly (readonly string[])[],
): Promise<LevelLookups> {
  const levels = encodingLevels(def);
  const wanted = new Map<number, Set<string>>();
  for (const parts of partsList) {
    for (const [i, part] of trimParts(parts, levels.length).entries()) {
      const type = levels[i]?.type;
      if (type === null || type === undefined || part === '') continue;
      const set = wanted.get(type) ?? new Set<string>();
      wanted.set(type, set.add(part));
    }
  }
  const values = (type: number) => [...(wanted.get(type) ?? [])];
  const byCode = async (table: CodedTable, type: number) => {
    const map = new Map<string, number>();
    await inBatches(values(type), async (codes) => {
      const rows = await tx
        .select({ id: table.id, code: table.code })
        .from(table)
        .where(and(eq(table.companyId, companyId), inArray(table.code, codes)));
      for (const row of rows) map.set(row.code, row.id);
    });
    return map;
  };
  const routes = new Map<string, { id: number; sectorId: number }[]>();
  await inBatches(values(encodingLevelTypes.route), async (codes) => {
    const rows = await tx
      .select({ id: waterRoutes.id, sectorId: waterRoutes.sectorId, code: waterRoutes.code })
      .from(waterRoutes)
      .where(and(eq(waterRoutes.companyId, companyId), inArray(waterRoutes.code, codes)));
    for (const { code, ...route } of rows) routes.set(code, [...(routes.get(code) ?? []), route]);
  });
  const addressIds = new Set<number>();
  const ids = values(encodingLevelTypes.address)
    .filter((part) => /^\d{1,9}$/.test(part))
    .map(Number);
  await inBatches(ids, async (batch) => {
    const rows = await tx
      .select({ id: addresses.id })
      .from(addresses)
      .where(and(eq(addresses.companyId, companyId), inArray(addresses.id, batch)));
    for (const row of rows) addressIds.add(row.id);
  });
  return {
    sectors: await byCode(waterSectors, encodingLevelTypes.sector),
    routes,
    departments: await byCode(departments, encodingLevelTypes.department),
    areas: await byCode(waterAreas, encodingLevelTypes.area),
    buildings: await byCode(waterBuildings, encodingLevelTypes.building),
    addresses: addressIds,
  };
}

/**
 * The code of the typed parts, checked against the definition and the loaded lookups: one part per
 * level, each within its length, the last digits only, every other part a value of its level's
 * lookup (a route in the sector of the code). Answers the padded code and the ids it was built
 * from, or the field errors `parts.<i>`.
 */
export function checkParts(
  def: EncodingCodeDefinition,
  lookups: LevelLookups,
  parts: readonly string[],
): { code: string; levels: CodeLevels } | { errors: FieldError[] } {
  const levels = encodingLevels(def);
  if (parts.length !== levels.length) {
    return {
      errors: [{ field: 'parts', key: 'validation.encoding_levels', params: { levels: levels.length } }],
    };
  }
  const errors: FieldError[] = [];
  const ids: CodeLevels = {
    sectorId: null,
    routeId: null,
    departmentId: null,
    areaId: null,
    addressId: null,
    buildingId: null,
  };
  const fail = (i: number, key: string, params: Record<string, string | number> = {}) =>
    errors.push({ field: `parts.${i}`, key, params });
  const trimmed = trimParts(parts, levels.length);
  for (const [i, level] of levels.entries()) {
    const part = trimmed[i] ?? '';
    if (part === '') fail(i, 'validation.required');
    else if (part.length > level.length) fail(i, 'validation.max_length', { length: level.length });
    else if (level.type === null && !/^\d+$/.test(part)) fail(i, 'validation.digits_only');
  }
  if (errors.length > 0) return { errors };
  // Sectors first: a route is looked up within the code's sector.
  const order = [...levels.keys()].sort(
    (a, b) =>
      Number(levels[a]?.type !== encodingLevelTypes.sector) -
      Number(levels[b]?.type !== encodingLevelTypes.sector),
  );
  const hasSector = levels.some((l) => l.type === encodingLevelTypes.sector);
  for (const i of order) {
    const part = trimmed[i] ?? '';
    switch (levels[i]?.type) {
      case encodingLevelTypes.sector:
        ids.sectorId = lookups.sectors.get(part) ?? null;
        if (ids.sectorId === null) fail(i, 'validation.level_value_unknown');
        break;
      case encodingLevelTypes.route: {
        // An unknown sector is the error to report; its routes cannot be told.
        if (hasSector && ids.sectorId === null) break;
        const routes = lookups.routes.get(part) ?? [];
        const inSector = ids.sectorId === null ? routes : routes.filter((r) => r.sectorId === ids.sectorId);
        if (inSector.length === 1) ids.routeId = inSector[0]?.id ?? null;
        else if (routes.length > 0 && inSector.length === 0) fail(i, 'validation.route_other_sector');
        else fail(i, inSector.length > 1 ? 'validation.route_ambiguous' : 'validation.level_value_unknown');
        break;
      }
      case encodingLevelTypes.department:
        ids.departmentId = lookups.departments.get(part) ?? null;
        if (ids.departmentId === null) fail(i, 'validation.level_value_unknown');
        break;
      case encodingLevelTypes.area:
        ids.areaId = lookups.areas.get(part) ?? null;
        if (ids.areaId === null) fail(i, 'validation.level_value_unknown');
        break;
      case encodingLevelTypes.building:
        ids.buildingId = lookups.buildings.get(part) ?? null;
        if (ids.buildingId === null) fail(i, 'validation.level_value_unknown');
        break;
      case encodingLevelTypes.address: {
        const id = /^\d{1,9}$/.test(part) ? Number(part) : 0;
        ids.addressId = lookups.addresses.has(id) ? id : null;
        if (ids.addressId === null) fail(i, 'validation.level_value_unknown');
        break;
      }
      default:
        // A custom field level or the consumer's number: any value within its length.
        break;
    }
  }
  if (errors.length > 0) return { errors };
  return { code: previewCode(def, trimmed), levels: ids };
}

/** One code checked (a consumer's save); refuses with field errors `parts.<i>`. */
export async function resolveCode(
  tx: Db | Tx,
  companyId: number,
  parts: readonly string[],
): Promise<{ code: string; levels: CodeLevels }> {
  const def = await requireDefinition(tx, companyId);
  const lookups = await loadLevelLookups(tx, companyId, def, [parts]);
  const resolved = checkParts(def, lookups, parts);
  if ('errors' in resolved) throw badRequest(resolved.errors);
  return resolved;
}

/** Whether a code is taken in the company (spec §7 exist_code). */
export async function codeExists(db: Db, companyId: number, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: waterConsumers.id })
    .from(waterConsumers)
    .where(and(eq(waterConsumers.companyId, companyId), eq(waterConsumers.code, code)));
  return row !== undefined;
}

/**
 * The recommended last part for a preview whose last part is empty (spec §7): one past the largest
 * number used under the same preceding parts; null when the preview does not fit or the level is full.
 */
export async function recommendedLastPart(
  db: Db,
  companyId: number,
  preview: string,
): Promise<string | null> {
  const def = await requireDefinition(db, companyId);
  const levels = encodingLevels(def);
  const lastLength = levels[levels.length - 1]?.length ?? 0;
  // The preview with a placeholder number must fit the definition; its prefix is then exact.
  const probe = `${preview.slice(0, preview.length - lastLength)}${'1'.padStart(lastLength, ' ')}`;
  if (preview.length !== probe.length || splitCode(def, probe) === null) return null;
  const prefix = preview.slice(0, preview.length - lastLength);
  const used = await db
    .select({ last: sql<string>`substr(${waterConsumers.code}, ${prefix.length + 1})` })
    .from(waterConsumers)
    .where(
      and(
        eq(waterConsumers.companyId, companyId),
        sql`left(${waterConsumers.code}, ${prefix.length}) = ${prefix}`,
        sql`length(${waterConsumers.code}) = ${preview.length}`,
      ),
    );
  return nextLastPart(
    lastLength,
    used.map((u) => u.last),
  );
}

/** A save of a code another consumer has: the one clean 409 the issue asks for. */
export const codeTaken = () => new AppError(409, CODE_NOT_ALLOWED);
