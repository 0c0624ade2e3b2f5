import {
  type CustomFieldValues,
  errorKeys,
  type FieldError,
  issueToFieldError,
  type MergeTradersRequest,
  type SaveTrader,
  saveTraderSchema,
  type Trader,
  type TraderLookup,
} from '@protocol/contracts';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { diff, recordAudit } from '../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { checkCustomFieldValues } from '../../platform/custom-fields/custom-fields.ts';
import { FOREIGN_KEY_VIOLATION, pgError } from '../../platform/db-errors.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { RowReference } from '../../platform/module.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { readCredentials } from '../companies/api.ts';
import { companies } from '../companies/companies.schema.ts';
import { loadCustomFields } from '../settings/api.ts';
import { banks, vatCategories, vatStatuses } from '../settings/settings-tables.schema.ts';
import { lookupVatNumber } from './registry-adapter.ts';
import { traderBanks, traders } from './traders.schema.ts';

type TraderRow = typeof traders.$inferSelect;

/**
 * The columns a merge moves from the merged trader to the survivor: the module's own, then those
 * other modules declare (`AppModule.references` with target 'traders'). An undeclared one still
 * protects the trader: its foreign key refuses the delete (409 error.linked_elsewhere).
 */
const OWN_REFERENCES = [{ table: 'trader_banks', column: 'trader_id' }];

const user = (principal: Principal) => ({ userId: principal.userId, username: principal.username });

/** The trader with this id of the company in use, or 404 (never 403: no existence leak). */
async function traderOf(tx: Tx, companyId: number, id: number, lock = false): Promise<TraderRow> {
  const query = tx.select().from(traders).where(eq(traders.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.companyId !== companyId) throw notFound();
  return row;
}

/** Other traders of the company with the same ΑΦΜ: a warning for the screen. */
async function duplicatesOf(tx: Tx, companyId: number, vatnumber: string | null, id: number) {
  if (!vatnumber) return [];
  return tx
    .select({ id: traders.id, fullname: traders.fullname })
    .from(traders)
    .where(and(eq(traders.companyId, companyId), eq(traders.vatnumber, vatnumber), ne(traders.id, id)))
    .orderBy(asc(traders.id));
}

async function describeTrader(tx: Tx, row: TraderRow): Promise<Trader> {
  // One after another: a transaction is one connection, which runs one statement at a time.
  const accounts = await tx
    .select({
      id: traderBanks.id,
      iban: traderBanks.iban,
      bic: traderBanks.bic,
      bankId: traderBanks.bankId,
      bankName: banks.name,
    })
    .from(traderBanks)
    .leftJoin(banks, eq(banks.id, traderBanks.bankId))
    .where(eq(traderBanks.traderId, row.id))
    .orderBy(asc(traderBanks.id));
  const duplicates = await duplicatesOf(tx, row.companyId, row.vatnumber, row.id);
  return {
    id: row.id,
    companyId: row.companyId,
    ...saveShapeOf(row),
    traderbanks: accounts,
    duplicates,
    ...auditFieldsOf(row),
  };
}

export async function getTrader(db: Db, companyId: number, id: number): Promise<Trader> {
  return describeTrader(db, await traderOf(db, companyId, id));
}

/** A trader as the save schema reads it (the merge starts from the survivor's values). */
function saveShapeOf(row: TraderRow) {
  return {
    tradercode: row.tradercode,
    vatnumber: row.vatnumber,
    fullname: row.fullname,
    title: row.title,
    firstname: row.firstname,
    lastname: row.lastname,
    fathername: row.fathername,
    mothername: row.mothername,
    job: row.job,
    phones: row.phones,
    mobile: row.mobile,
    email: row.email,
    address: row.address,
    city: row.city,
    area: row.area,
    zipcode: row.zipcode,
    doy: row.doy,
    country: row.country,
    vat_category: row.vatCategoryId,
    vat_status: row.vatStatusId,
    kepyo: row.kepyo,
    birthday: row.birthday,
    idnumber: row.idnumber,
    individual: row.individual,
    active: row.active,
    status: row.status,
    customFields: row.customFields,
  };
}

/** The columns of a validated trader. */
function columnsOf(input: SaveTrader, customValues: CustomFieldValues) {
  return {
    tradercode: input.tradercode,
    vatnumber: input.vatnumber,
    fullname: input.fullname,
    title: input.individual ? null : input.title,
    firstname: input.firstname,
    lastname: input.lastname,
    fathername: input.fathername,
    mothername: input.mothername,
    job: input.job,
    phones: input.phones,
    mobile: input.mobile,
    email: input.email,
    address: input.address,
    city: input.city,
    area: input.area,
    zipcode: input.zipcode,
    doy: input.doy,
    country: input.country,
    vatCategoryId: input.vat_category,
    vatStatusId: input.vat_status,
    kepyo: input.kepyo,
    birthday: input.birthday,
    idnumber: input.idnumber,
    individual: input.individual,
    active: input.active,
    status: input.status,
    customFields: customValues,
  };
}

/**
 * The checks that need the database: VAT category/status and banks exist, and the custom field
 * values match the company's definitions of traders (platform/custom-fields).
 */
async function checkReferences(tx: Tx, companyId: number, input: SaveTrader): Promise<CustomFieldValues> {
  const errors: FieldError[] = [];
  const invalid = (field: string, key = 'validation.invalid') => errors.push({ field, key, params: {} });
  const exists = async (table: typeof vatCategories | typeof vatStatuses | typeof banks, id: number) =>
    (await tx.select({ id: table.id }).from(table).where(eq(table.id, id))).length > 0;
  if (input.vat_category !== null && !(await exists(vatCategories, input.vat_category)))
    invalid('vat_category');
  if (input.vat_status !== null && !(await exists(vatStatuses, input.vat_status))) invalid('vat_status');
  for (const [index, account] of input.traderbanks.entries()) {
    if (account.bankId !== null && !(await exists(banks, account.bankId)))
      invalid(`traderbanks.${index}.bankId`);
  }

  const custom = checkCustomFieldValues(await loadCustomFields(tx, companyId, 'traders'), input.customFields);
  errors.push(...custom.errors);
  if (errors.length > 0) throw badRequest(errors);
  return custom.values;
}

/** The bank accounts as sent: kept (by id), added (null id), the others removed. */
async function saveBanks(tx: Tx, traderId: number, input: SaveTrader, username: string): Promise<void> {
  const current = await tx
    .select({ id: traderBanks.id })
    .from(traderBanks)
    .where(eq(traderBanks.traderId, traderId));
  const currentIds = new Set(current.map((row) => row.id));
  for (const [index, account] of input.traderbanks.entries()) {
    if (account.id !== null && !currentIds.has(account.id)) {
      throw badRequest([{ field: `traderbanks.${index}.id`, key: 'validation.invalid', params: {} }]);
    }
  }
  const kept = new Set(input.traderbanks.map((a) => a.id).filter((id): id is number => id !== null));
  const removed = [...currentIds].filter((id) => !kept.has(id));
  if (removed.length > 0) await tx.delete(traderBanks).where(inArray(traderBanks.id, removed));
  for (const account of input.traderbanks) {
    let bic = account.bic;
    if (bic === null && account.bankId !== null) {
      const [bank] = await tx.select({ bic: banks.bic }).from(banks).where(eq(banks.id, account.bankId));
      bic = bank?.bic ?? null;
    }
    const values = { iban: account.iban, bic, bankId: account.bankId };
    if (account.id === null) {
      await tx.insert(traderBanks).values({ ...values, traderId, createuser: username });
    } else {
      await tx
        .update(traderBanks)
        .set({ ...values, ...updatedBy(username) })
        .where(eq(traderBanks.id, account.id));
    }
  }
}

export async function createTrader(
  db: Db,
  principal: Principal,
  companyId: number,
  input: SaveTrader,
  requestId: string,
): Promise<Trader> {
  return db.transaction(async (tx) => {
    const customValues = await checkReferences(tx, companyId, input);
    const [row] = await tx
      .insert(traders)
      .values({ ...columnsOf(input, customValues), companyId, createuser: principal.username })
      .returning();
    if (!row) throw new Error('trader not created');
    await saveBanks(tx, row.id, input, principal.username);
    await recordAudit(tx, {
      entity: 'trader',
      entityId: row.id,
      action: 'create',
      companyId,
      user: user(principal),
      requestId,
    });
    return describeTrader(tx, row);
  });
}

export async function updateTrader(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  input: SaveTrader,
  requestId: string,
): Promise<Trader> {
  return db.transaction(async (tx) => {
    const before = await traderOf(tx, companyId, id, true);
    const customValues = await checkReferences(tx, before.companyId, input);
    const values = columnsOf(input, customValues);
    const [row] = await tx
      .update(traders)
      .set({ ...values, ...updatedBy(principal.username) })
      .where(eq(traders.id, id))
      .returning();
    if (!row) throw notFound();
    await saveBanks(tx, id, input, principal.username);
    const { customFields: newCustom, ...plain } = values;
    const changes = diff(before as unknown as Record<string, unknown>, plain);
    if (JSON.stringify(before.customFields) !== JSON.stringify(newCustom)) {
      changes.customFields = { before: before.customFields, after: newCustom };
    }
    await recordAudit(tx, {
      entity: 'trader',
      entityId: id,
      action: 'update',
      companyId: row.companyId,
      user: user(principal),
      changes,
      requestId,
    });
    return describeTrader(tx, row);
  });
}

const linkedElsewhere = (cause: unknown) =>
  new AppError(409, errorKeys.linkedElsewhere, {}, undefined, cause);

/** Deletes traders; one referenced anywhere (any foreign key) refuses the whole delete: deactivate it instead. */
export async function deleteTraders(
  db: Db,
  principal: Principal,
  companyId: number,
  ids: number[],
  requestId: string,
): Promise<void> {
  const unique = [...new Set(ids)];
  try {
    await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: traders.id, companyId: traders.companyId })
        .from(traders)
        .where(inArray(traders.id, unique));
      if (rows.length !== unique.length || rows.some((r) => r.companyId !== companyId)) {
        throw notFound();
      }
      await tx.delete(traders).where(inArray(traders.id, unique));
      for (const row of rows) {
        await recordAudit(tx, {
          entity: 'trader',
          entityId: row.id,
          action: 'delete',
          companyId: row.companyId,
          user: user(principal),
          requestId,
        });
      }
    });
  } catch (error) {
    if (pgError(error)?.code === FOREIGN_KEY_VIOLATION) throw linkedElsewhere(error);
    throw error;
  }
}

/**
 * Merges two traders of one company in one transaction: the survivor takes the chosen values, every
 * registered reference moves to it, the merged trader is deleted (a reference nobody registered makes
 * the delete fail: 409, nothing changes).
 */
export async function mergeTraders(
  db: Db,
  principal: Principal,
  companyId: number,
  request: MergeTradersRequest & { values: Record<string, unknown> },
  requestId: string,
  references: readonly RowReference[],
): Promise<Trader> {
  try {
    return await db.transaction(async (tx) => {
      // Lock in id order: two merges of the same pair cannot deadlock.
      const [first, second] = [request.survivorId, request.mergedId].sort((a, b) => a - b) as [
        number,
        number,
      ];
      const locked = [
        await traderOf(tx, companyId, first, true),
        await traderOf(tx, companyId, second, true),
      ];
      const survivor = locked.find((r) => r.id === request.survivorId) as TraderRow;
      const merged = locked.find((r) => r.id === request.mergedId) as TraderRow;

      const parsed = saveTraderSchema.safeParse({ ...saveShapeOf(survivor), ...request.values });
      if (!parsed.success) {
        throw badRequest(
          parsed.error.issues.map((issue) => {
            const error = issueToFieldError(issue);
            return { ...error, field: `values.${error.field}` };
          }),
        );
      }
      const input = parsed.data;
      const customValues = await checkReferences(tx, survivor.companyId, input);
      const values = columnsOf(input, customValues);
      const [row] = await tx
        .update(traders)
        .set({ ...values, ...updatedBy(principal.username) })
        .where(eq(traders.id, survivor.id))
        .returning();
      if (!row) throw notFound();
      const moved: Record<string, number> = {};
      for (const { table, column } of [...OWN_REFERENCES, ...references]) {
        const result = await tx.execute(
          sql`UPDATE ${sql.identifier(table)} SET ${sql.identifier(column)} = ${survivor.id} WHERE ${sql.identifier(column)} = ${merged.id} RETURNING 1`,
        );
        moved[`${table}.${column}`] = (result as unknown as { rows: unknown[] }).rows.length;
      }
      await tx.delete(traders).where(eq(traders.id, merged.id));
      await recordAudit(tx, {
        entity: 'trader',
        entityId: survivor.id,
        action: 'merge',
        companyId: survivor.companyId,
        user: user(principal),
        changes: {
          ...diff(
            survivor as unknown as Record<string, unknown>,
            (({ customFields: _c, ...plain }) => plain)(values),
          ),
          mergedId: { before: merged.id, after: null },
        },
        comments: `merged trader ${merged.id} (${merged.fullname ?? ''}, ${merged.vatnumber ?? ''}) into ${survivor.id}; moved ${JSON.stringify(moved)}`,
        requestId,
      });
      return describeTrader(tx, row);
    });
  } catch (error) {
    if (pgError(error)?.code === FOREIGN_KEY_VIOLATION) throw linkedElsewhere(error);
    throw error;
  }
}

/** GET /api/traders/lookup: the tax registry's answer with the company's registry credentials. */
export async function lookupTrader(
  db: Db,
  config: Config,
  secrets: SecretBox,
  companyId: number,
  vatnumber: string,
): Promise<TraderLookup> {
  const [company] = await db
    .select({ vatnumber: companies.vatnumber, credentials: companies.credentials })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) throw notFound();
  const stored = readCredentials(secrets, company.credentials);
  if (!stored.registryUsername || !stored.registryPassword) {
    throw new AppError(422, errorKeys.registryNoCredentials);
  }
  return lookupVatNumber(
    config.aadeRegistryUrl,
    { username: stored.registryUsername, password: stored.registryPassword },
    { calledBy: company.vatnumber, calledFor: vatnumber },
  );
}
