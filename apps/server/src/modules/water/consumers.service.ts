import { type Consumer, type SaveConsumer, splitCode } from '@protocol/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { alias, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { diff, recordAudit } from '../../platform/audit.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { checkCustomFieldValues } from '../../platform/custom-fields/custom-fields.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { loadCustomFields } from '../settings/api.ts';
import { addresses, departments } from '../settings/settings-tables.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { codeTaken, resolveCode } from './consumer-code.ts';
import { waterConsumers } from './consumers.schema.ts';
import { encodingDefinition } from './encoding-code.service.ts';
import {
  waterAreas,
  waterBuildings,
  waterConnectionTypes,
  waterInvoicePolicies,
  waterPipeDiameters,
  waterPropertyUsages,
  waterRoutes,
  waterSectors,
  waterSewerageIndicators,
  waterSpecialRegulations,
} from './parametrics.schema.ts';

type ConsumerRow = typeof waterConsumers.$inferSelect;
type Ref = { id: number; code: string; descr: string } | null;

/** The company's rows among `ids` of a table with `id` and `company_id`. */
async function ownIds(
  tx: Tx,
  table: PgTable & { id: never; companyId: never },
  companyId: number,
  ids: number[],
) {
  if (ids.length === 0) return new Set<number>();
  const t = table as unknown as typeof waterSectors;
  const rows = await tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.companyId, companyId), inArray(t.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** Every reference of the input is a row of the company: otherwise a 400 naming the field. */
async function checkReferences(tx: Tx, companyId: number, input: SaveConsumer) {
  const checks: [field: keyof SaveConsumer, table: PgTable][] = [
    ['ownerId', traders],
    ['liableId', traders],
    ['receiverId', traders],
    ['propertyUsageId', waterPropertyUsages],
    ['connectionTypeId', waterConnectionTypes],
    ['sewerageIndicatorId', waterSewerageIndicators],
    ['pipeDiameterId', waterPipeDiameters],
    ['invoicePolicyId', waterInvoicePolicies],
    ['specialRegulationId', waterSpecialRegulations],
  ];
  const errors = [];
  for (const [field, table] of checks) {
    const id = input[field] as number | null;
    if (id === null) continue;
    const own = await ownIds(tx, table as never, companyId, [id]);
    if (!own.has(id)) errors.push({ field, key: 'validation.not_of_company', params: {} });
  }
  if (errors.length > 0) throw badRequest(errors);
}

async function checkedCustomFields(tx: Tx, companyId: number, input: SaveConsumer) {
  const custom = checkCustomFieldValues(
    await loadCustomFields(tx, companyId, 'consumers'),
    input.customFields,
  );
  if (custom.errors.length > 0) throw badRequest(custom.errors);
  return custom.values;
}

/** The stored columns of an input, besides the code and its levels. */
function columnsOf(input: SaveConsumer) {
  const { parts: _parts, customFields: _custom, ...plain } = input;
  return plain;
}

/** A unique violation on the code is the clean 409 of two operators saving one code at once. */
function codeConflict(error: unknown): never {
  const failure = pgError(error);
  if (failure?.code === UNIQUE_VIOLATION && failure.constraint === 'water_consumers_code_unique')
    throw codeTaken();
  throw error;
}

export async function createConsumer(
  db: Db,
  principal: Principal,
  companyId: number,
  input: SaveConsumer,
  requestId: string,
): Promise<Consumer> {
  try {
    const id = await db.transaction(async (tx) => {
      const { code, levels } = await resolveCode(tx, companyId, input.parts);
      await checkReferences(tx, companyId, input);
      const customFields = await checkedCustomFields(tx, companyId, input);
      const [row] = await tx
        .insert(waterConsumers)
        .values({
          companyId,
          code,
          ...levels,
          ...columnsOf(input),
          customFields,
          createuser: principal.username,
        })
        .returning({ id: waterConsumers.id });
      const created = row?.id ?? 0;
      await recordAudit(tx, {
        entity: 'consumer',
        entityId: created,
        action: 'create',
        companyId,
        user: principal,
        requestId,
      });
      return created;
    });
    return await getConsumer(db, companyId, id);
  } catch (error) {
    codeConflict(error);
  }
}

export async function updateConsumer(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  input: SaveConsumer,
  requestId: string,
): Promise<Consumer> {
  try {
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(waterConsumers)
        .where(and(eq(waterConsumers.id, id), eq(waterConsumers.companyId, companyId)))
        .for('update');
      if (!before) throw notFound();
      const { code, levels } = await resolveCode(tx, companyId, input.parts);
      await checkReferences(tx, companyId, input);
      const customFields = await checkedCustomFields(tx, companyId, input);
      const values = { code, ...levels, ...columnsOf(input) };
      await tx
        .update(waterConsumers)
        .set({ ...values, customFields, ...updatedBy(principal.username) })
        .where(eq(waterConsumers.id, id));
      const changes = diff(before as unknown as Record<string, unknown>, values);
      if (JSON.stringify(before.customFields) !== JSON.stringify(customFields))
        changes.customFields = { before: before.customFields, after: customFields };
      await recordAudit(tx, {
        entity: 'consumer',
        entityId: id,
        action: 'update',
        companyId,
        user: principal,
        requestId,
        changes,
      });
    });
    return await getConsumer(db, companyId, id);
  } catch (error) {
    codeConflict(error);
  }
}

const owner = alias(traders, 'owner');
const liable = alias(traders, 'liable');
const receiver = alias(traders, 'receiver');

const refOf = (id: number | null, code: string | null, descr: string | null): Ref =>
  id === null ? null : { id, code: code ?? '', descr: descr ?? '' };

/** One consumer of the company with what its references read as. */
export async function getConsumer(db: Db | Tx, companyId: number, id: number): Promise<Consumer> {
  const [row] = await db
    .select({
      c: waterConsumers,
      sector: { code: waterSectors.code, descr: waterSectors.description },
      route: { code: waterRoutes.code, descr: waterRoutes.description },
      department: { code: departments.code, descr: departments.description },
      area: { code: waterAreas.code, descr: waterAreas.description },
      address: { street: addresses.street, number: addresses.number },
      building: { code: waterBuildings.code, descr: waterBuildings.description },
      owner: { fullname: owner.fullname, vatnumber: owner.vatnumber },
      liable: { fullname: liable.fullname, vatnumber: liable.vatnumber },
      receiver: { fullname: receiver.fullname, vatnumber: receiver.vatnumber },
      usage: { code: waterPropertyUsages.code, descr: waterPropertyUsages.description },
      connection: { code: waterConnectionTypes.code, descr: waterConnectionTypes.description },
      sewerage: { code: waterSewerageIndicators.code, descr: waterSewerageIndicators.description },
      diameter: { code: waterPipeDiameters.code, descr: waterPipeDiameters.description },
      policy: { descr: waterInvoicePolicies.description },
      special: { code: waterSpecialRegulations.code, descr: waterSpecialRegulations.description },
    })
    .from(waterConsumers)
    .leftJoin(waterSectors, eq(waterSectors.id, waterConsumers.sectorId))
    .leftJoin(waterRoutes, eq(waterRoutes.id, waterConsumers.routeId))
    .leftJoin(departments, eq(departments.id, waterConsumers.departmentId))
    .leftJoin(waterAreas, eq(waterAreas.id, waterConsumers.areaId))
    .leftJoin(addresses, eq(addresses.id, waterConsumers.addressId))
    .leftJoin(waterBuildings, eq(waterBuildings.id, waterConsumers.buildingId))
    .leftJoin(owner, eq(owner.id, waterConsumers.ownerId))
    .leftJoin(liable, eq(liable.id, waterConsumers.liableId))
    .leftJoin(receiver, eq(receiver.id, waterConsumers.receiverId))
    .leftJoin(waterPropertyUsages, eq(waterPropertyUsages.id, waterConsumers.propertyUsageId))
    .leftJoin(waterConnectionTypes, eq(waterConnectionTypes.id, waterConsumers.connectionTypeId))
    .leftJoin(waterSewerageIndicators, eq(waterSewerageIndicators.id, waterConsumers.sewerageIndicatorId))
    .leftJoin(waterPipeDiameters, eq(waterPipeDiameters.id, waterConsumers.pipeDiameterId))
    .leftJoin(waterInvoicePolicies, eq(waterInvoicePolicies.id, waterConsumers.invoicePolicyId))
    .leftJoin(waterSpecialRegulations, eq(waterSpecialRegulations.id, waterConsumers.specialRegulationId))
    .where(and(eq(waterConsumers.id, id), eq(waterConsumers.companyId, companyId)));
  if (!row) throw notFound();
  const c: ConsumerRow = row.c;
  const def = await encodingDefinition(db, companyId);
  const trader = (tid: number | null, t: { fullname: string | null; vatnumber: string | null }) =>
    tid === null ? null : { id: tid, fullname: t.fullname, vatnumber: t.vatnumber };
  return {
    id: c.id,
    companyId: c.companyId,
    code: c.code,
    parts: (def && splitCode(def, c.code)) ?? [],
    sector: refOf(c.sectorId, row.sector?.code ?? null, row.sector?.descr ?? null),
    route: refOf(c.routeId, row.route?.code ?? null, row.route?.descr ?? null),
    routePosition: c.routePosition,
    department: refOf(c.departmentId, row.department?.code ?? null, row.department?.descr ?? null),
    area: refOf(c.areaId, row.area?.code ?? null, row.area?.descr ?? null),
    address: refOf(
      c.addressId,
      c.addressId === null ? null : String(c.addressId),
      [row.address?.street, row.address?.number].filter(Boolean).join(' '),
    ),
    building: refOf(c.buildingId, row.building?.code ?? null, row.building?.descr ?? null),
    owner: trader(c.ownerId, row.owner ?? { fullname: null, vatnumber: null }),
    liable: trader(c.liableId, row.liable ?? { fullname: null, vatnumber: null }),
    receiver: trader(c.receiverId, row.receiver ?? { fullname: null, vatnumber: null }),
    supplyAddress: c.supplyAddress,
    supplyPostalCode: c.supplyPostalCode,
    mailingAddress: c.mailingAddress,
    propertyUsage: refOf(c.propertyUsageId, row.usage?.code ?? null, row.usage?.descr ?? null),
    connectionType: refOf(c.connectionTypeId, row.connection?.code ?? null, row.connection?.descr ?? null),
    sewerageIndicator: refOf(c.sewerageIndicatorId, row.sewerage?.code ?? null, row.sewerage?.descr ?? null),
    pipeDiameter: refOf(c.pipeDiameterId, row.diameter?.code ?? null, row.diameter?.descr ?? null),
    invoicePolicy: refOf(c.invoicePolicyId, row.policy?.descr ?? null, row.policy?.descr ?? null),
    specialRegulation: refOf(c.specialRegulationId, row.special?.code ?? null, row.special?.descr ?? null),
    specialFrom: c.specialFrom,
    specialTo: c.specialTo,
    applicationDate: c.applicationDate,
    connectionDate: c.connectionDate,
    contractDate: c.contractDate,
    disconnectionDate: c.disconnectionDate,
    status: c.status,
    notes: c.notes,
    customFields: c.customFields,
    createuser: c.createuser,
    createdate: c.createdate?.toISOString() ?? null,
    updateuser: c.updateuser,
    updatedate: c.updatedate?.toISOString() ?? null,
  };
}

/** Whether the company has consumers (their codes pin the encoding definition's shape). */
export async function hasConsumers(tx: Db | Tx, companyId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: waterConsumers.id })
    .from(waterConsumers)
    .where(eq(waterConsumers.companyId, companyId))
    .limit(1);
  return row !== undefined;
}
