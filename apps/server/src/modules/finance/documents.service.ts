import {
  type DocumentTotals,
  documentTotals,
  FINALIZED,
  type FieldError,
  type FinanceDocument,
  moneyString,
  type SaveFinanceDocument,
  type SeriesKind,
} from '@protocol/contracts';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { type JsonRow, jsonRowOf, preparedStatement, rowOf } from '../../db/prepared.ts';
import { auditInsert, recordAudit } from '../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { traders } from '../traders/traders.schema.ts';
import {
  financeDocumentLines,
  financeDocuments,
  financeDocumentTaxes,
  financeItems,
  financeSeries,
  financeServices,
  financeWarehouses,
} from './finance.schema.ts';

/**
 * Commercial documents: drafts are saved whole (lines and taxes replaced), totals computed here with
 * the contracts' money rules; finalized documents never change (documents.finalize.ts numbers them).
 */

export type DocumentRow = typeof financeDocuments.$inferSelect;
type SeriesRow = typeof financeSeries.$inferSelect;

export const financeErrors = {
  finalized: 'finance.error.finalized',
  notFinalized: 'finance.error.notFinalized',
  noRelatedSeries: 'finance.error.noRelatedSeries',
  dateBeforeLast: 'finance.error.dateBeforeLast',
} as const;

/** The document of the company in use, or 404; locked for an update when asked. */
export async function documentOf(
  tx: Db | Tx,
  companyId: number,
  id: number,
  lock = false,
): Promise<DocumentRow> {
  const query = tx.select().from(financeDocuments).where(eq(financeDocuments.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.companyId !== companyId) throw notFound();
  return row;
}

export async function seriesOf(tx: Db | Tx, companyId: number, id: number): Promise<SeriesRow | undefined> {
  const [row] = await tx
    .select()
    .from(financeSeries)
    .where(and(eq(financeSeries.id, id), eq(financeSeries.companyId, companyId)));
  return row;
}

export async function getFinanceDocument(
  db: Db | Tx,
  companyId: number,
  id: number,
): Promise<FinanceDocument> {
  return describe(db, await documentOf(db, companyId, id));
}

export type LineRow = typeof financeDocumentLines.$inferSelect;
/** The document's series and its trader's name and ΑΦΜ. */
export type DocumentHead = {
  series: typeof financeSeries.$inferSelect;
  fullname: string | null;
  vatnumber: string | null;
};
export type TaxRow = typeof financeDocumentTaxes.$inferSelect;

/** The document as the API answers it; lines and taxes just written are passed in, not read again. */
export async function describe(
  db: Db | Tx,
  row: DocumentRow,
  written?: { lines: LineRow[]; taxes: TaxRow[] },
  known?: DocumentHead,
): Promise<FinanceDocument> {
  const [head] = known
    ? [known]
    : await db
        .select({ series: financeSeries, fullname: traders.fullname, vatnumber: traders.vatnumber })
        .from(financeSeries)
        .leftJoin(traders, eq(traders.id, row.traderId ?? -1))
        .where(eq(financeSeries.id, row.seriesId));
  if (!head) throw notFound();
  const { series } = head;
  const trader = row.traderId ? { fullname: head.fullname, vatnumber: head.vatnumber } : undefined;
  const lines =
    written?.lines ??
    (await db
      .select()
      .from(financeDocumentLines)
      .where(eq(financeDocumentLines.documentId, row.id))
      .orderBy(asc(financeDocumentLines.position)));
  const taxes =
    written?.taxes ??
    (await db
      .select()
      .from(financeDocumentTaxes)
      .where(eq(financeDocumentTaxes.documentId, row.id))
      .orderBy(asc(financeDocumentTaxes.id)));
  return {
    id: row.id,
    companyId: row.companyId,
    seriesId: row.seriesId,
    seriesCode: series.code,
    seriesDescr: series.descr,
    seriesKind: series.kind as SeriesKind,
    mydataType: series.mydataType as FinanceDocument['mydataType'],
    printype: series.printype,
    copies: series.copies,
    debitCredit: series.debitCredit,
    number: row.number,
    year: row.year,
    date: row.date,
    traderId: row.traderId,
    traderName: trader?.fullname ?? null,
    traderVatnumber: trader?.vatnumber ?? null,
    paymentMethod: row.paymentMethod,
    entryState: row.entryState,
    status: row.status,
    relatedDocumentId: row.relatedDocumentId,
    transformedIntoId: row.transformedIntoId,
    notes: row.notes,
    net: row.net,
    discount: row.discount,
    vat: row.vat,
    gross: row.gross,
    taxesCharged: row.taxesCharged,
    withheld: row.withheld,
    payable: row.payable,
    lines: lines.map((l) => ({
      id: l.id,
      serviceId: l.serviceId,
      itemId: l.itemId,
      warehouseId: l.warehouseId,
      descr: l.descr,
      quantity: l.quantity,
      price: l.price,
      discount: l.discount,
      vatPercent: l.vatPercent,
      net: l.net,
      vat: l.vat,
      total: l.total,
    })),
    taxes: taxes.map((t) => ({ id: t.id, kind: t.kind, percent: t.percent, amount: t.amount })),
    ...auditFieldsOf(row),
  };
}

/** What a line needs of its service. */
interface ServiceRef {
  id: number;
  descr: string;
  accountId: number | null;
}

export interface Resolved {
  descr: string;
  accountId: number | null;
  warehouseId: number | null;
}

/**
 * The series, the trader and the lines' services in one prepared statement (one round trip for the
 * usual invoice): the trader and the services only when they are the company's.
 */
const seriesTraderServices = preparedStatement(
  () => sql`SELECT ${jsonRowOf(financeSeries, 'finance_series')} AS "series", ${traders.id} AS "traderId",
      ${traders.fullname} AS "fullname", ${traders.vatnumber} AS "vatnumber",
      (SELECT coalesce(json_agg(json_build_object('id', ${financeServices.id}, 'descr', ${financeServices.descr},
        'accountId', ${financeServices.accountId})), '[]')
        FROM ${financeServices} WHERE ${financeServices.companyId} = ${sql.placeholder('companyId')}
          AND ${financeServices.id} = ANY(${sql.placeholder('serviceIds')}::int[])) AS "services"
    FROM ${financeSeries}
    LEFT JOIN ${traders} ON ${traders.id} = ${sql.placeholder('traderId')} AND ${traders.companyId} = ${sql.placeholder('companyId')}
    WHERE ${financeSeries.id} = ${sql.placeholder('seriesId')} AND ${financeSeries.companyId} = ${sql.placeholder('companyId')}`,
);

/** Series, trader, services, items and warehouses of the company; each line's description and account. */
export async function resolve(tx: Db | Tx, companyId: number, input: SaveFinanceDocument) {
  const errors: FieldError[] = [];
  const invalid = (field: string, key = 'validation.invalid') => errors.push({ field, key, params: {} });
  const ids = (pick: (l: SaveFinanceDocument['lines'][number]) => number | null) => [
    ...new Set(input.lines.map(pick).filter((id): id is number => id !== null)),
  ];
  const serviceIds = ids((l) => l.serviceId);
  const itemIds = ids((l) => l.itemId);
  const warehouseIds = ids((l) => l.warehouseId);
  const companyServices = (wanted: number[]) =>
    and(eq(financeServices.companyId, companyId), inArray(financeServices.id, wanted.length ? wanted : [-1]));
  const [row] = await seriesTraderServices<{
    series: JsonRow;
    traderId: number | null;
    fullname: string | null;
    vatnumber: string | null;
    services: ServiceRef[];
  }>(tx, {
    companyId,
    seriesId: input.seriesId,
    traderId: input.traderId ?? -1,
    serviceIds: `{${serviceIds.join(',')}}`,
  });
  const found = row && { ...row, series: rowOf<SeriesRow>(financeSeries, row.series) };
  const series = found?.series;
  if (!series?.active) invalid('seriesId');
  if (input.traderId !== null) {
    const trader = found
      ? found.traderId
      : (
          await tx
            .select({ id: traders.id })
            .from(traders)
            .where(and(eq(traders.id, input.traderId), eq(traders.companyId, companyId)))
        )[0]?.id;
    if (!trader) invalid('traderId');
  } else if (series && series.kind !== 'retailReceipt') {
    invalid('traderId', 'validation.required');
  }
  // Without the series row the services are looked up alone, so every bad line is still named.
  const services = new Map(
    (found
      ? found.services
      : serviceIds.length === 0
        ? []
        : await tx
            .select({
              id: financeServices.id,
              descr: financeServices.descr,
              accountId: financeServices.accountId,
            })
            .from(financeServices)
            .where(companyServices(serviceIds))
    ).map((s) => [s.id, s]),
  );
  const items = new Map(
    itemIds.length === 0
      ? []
      : (
          await tx
            .select()
            .from(financeItems)
            .where(and(eq(financeItems.companyId, companyId), inArray(financeItems.id, itemIds)))
        ).map((s) => [s.id, s]),
  );
  const warehouses = new Set(
    warehouseIds.length === 0
      ? []
      : (
          await tx
            .select({ id: financeWarehouses.id })
            .from(financeWarehouses)
            .where(
              and(eq(financeWarehouses.companyId, companyId), inArray(financeWarehouses.id, warehouseIds)),
            )
        ).map((w) => w.id),
  );
  const resolved = input.lines.map((line, index): Resolved => {
    if (line.warehouseId !== null && !warehouses.has(line.warehouseId)) invalid(`lines.${index}.warehouseId`);
    if (line.serviceId !== null) {
      const service = services.get(line.serviceId);
      if (!service) invalid(`lines.${index}.serviceId`);
      return {
        descr: line.descr ?? service?.descr ?? '',
        accountId: service?.accountId ?? null,
        warehouseId: null,
      };
    }
    const item = items.get(line.itemId ?? -1);
    if (!item) invalid(`lines.${index}.itemId`);
    const warehouseId = line.warehouseId ?? item?.warehouseId ?? null;
    if (item && series?.movesStock && warehouseId === null)
      invalid(`lines.${index}.warehouseId`, 'validation.required');
    return { descr: line.descr ?? item?.descr ?? '', accountId: item?.accountId ?? null, warehouseId };
  });
  if (errors.length > 0 || !series) throw badRequest(errors);
  return {
    resolved,
    head: { series, fullname: found?.fullname ?? null, vatnumber: found?.vatnumber ?? null },
  };
}

/** The document's amounts by the contracts' money rules. */
export function totalsOf(input: SaveFinanceDocument) {
  const totals = documentTotals(input.lines, input.taxes);
  const header = {
    net: moneyString(totals.net),
    discount: moneyString(totals.discount),
    vat: moneyString(totals.vat),
    gross: moneyString(totals.gross),
    taxesCharged: moneyString(totals.taxesCharged),
    withheld: moneyString(totals.withheld),
    payable: moneyString(totals.payable),
  };
  return { totals, header };
}

/** The rows of a document's lines; `documentId` may be SQL (the id a statement has just inserted). */
export function lineValues(
  documentId: number | SQL,
  input: SaveFinanceDocument,
  resolved: Resolved[],
  totals: DocumentTotals,
) {
  return input.lines.map((line, index) => {
    const amounts = totals.lines[index];
    const extra = resolved[index];
    return {
      documentId,
      position: index + 1,
      serviceId: line.serviceId,
      itemId: line.itemId,
      warehouseId: extra?.warehouseId ?? null,
      accountId: extra?.accountId ?? null,
      descr: extra?.descr ?? '',
      quantity: line.quantity,
      price: line.price,
      discount: line.discount,
      vatPercent: line.vatPercent,
      net: moneyString(amounts?.net ?? 0),
      vat: moneyString(amounts?.vat ?? 0),
      total: moneyString(amounts?.total ?? 0),
    };
  });
}

/** The rows of a document's taxes, amounts computed (see `lineValues`). */
export function taxValues(documentId: number | SQL, input: SaveFinanceDocument, totals: DocumentTotals) {
  return input.taxes.map((tax, index) => ({
    documentId,
    kind: tax.kind,
    percent: tax.percent,
    amount: moneyString(totals.taxes[index] ?? 0),
  }));
}

/** Writes the lines and taxes (replacing a draft's); answers them as stored. */
async function writeContent(
  tx: Tx,
  documentId: number,
  input: SaveFinanceDocument,
  resolved: Resolved[],
  totals: DocumentTotals,
  replace: boolean,
) {
  if (replace) {
    await tx.delete(financeDocumentLines).where(eq(financeDocumentLines.documentId, documentId));
    await tx.delete(financeDocumentTaxes).where(eq(financeDocumentTaxes.documentId, documentId));
  }
  const lines = await tx
    .insert(financeDocumentLines)
    .values(lineValues(documentId, input, resolved, totals))
    .returning();
  const taxes =
    input.taxes.length === 0
      ? []
      : await tx
          .insert(financeDocumentTaxes)
          .values(taxValues(documentId, input, totals))
          .returning();
  return { lines, taxes };
}

export const headerOf = (input: SaveFinanceDocument) => ({
  seriesId: input.seriesId,
  date: input.date,
  traderId: input.traderId,
  paymentMethod: input.paymentMethod,
  status: input.status,
  notes: input.notes,
});

export async function createFinanceDocument(
  db: Db,
  principal: Principal,
  companyId: number,
  input: SaveFinanceDocument,
  requestId: string,
  extra: { relatedDocumentId?: number } = {},
): Promise<FinanceDocument> {
  return db.transaction(async (tx) => {
    const { row, written, head } = await insertDocument(tx, principal, companyId, input, extra);
    await auditInsert(tx, [createdAudit(row, principal, requestId)]);
    return describe(tx, row, written, head);
  });
}

/** Stores a new document (entry state new) in the caller's transaction; the caller audits it. */
export async function insertDocument(
  tx: Tx,
  principal: Principal,
  companyId: number,
  input: SaveFinanceDocument,
  extra: { relatedDocumentId?: number } = {},
) {
  const { resolved, head } = await resolve(tx, companyId, input);
  const { totals, header } = totalsOf(input);
  const [row] = await tx
    .insert(financeDocuments)
    .values({
      companyId,
      ...headerOf(input),
      ...header,
      ...extra,
      entryState: 0,
      createuser: principal.username,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  const written = await writeContent(tx, row.id, input, resolved, totals, false);
  return { row, written, head };
}

/** The audit line of a document's creation; its caller writes it, alone or with the finalize line. */
export const createdAudit = (row: DocumentRow, principal: Principal, requestId: string) => ({
  entity: 'financeDocument',
  entityId: String(row.id),
  action: 'create',
  companyId: row.companyId,
  userId: principal.userId,
  username: principal.username,
  requestId,
});

/** Refuses any change to a finalized document (409). */
export function assertEditable(row: DocumentRow): void {
  if (row.entryState === FINALIZED) throw new AppError(409, financeErrors.finalized);
}

export async function updateFinanceDocument(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  input: SaveFinanceDocument,
  requestId: string,
): Promise<FinanceDocument> {
  return db.transaction(async (tx) => {
    const current = await documentOf(tx, companyId, id, true);
    assertEditable(current);
    const { resolved, head } = await resolve(tx, current.companyId, input);
    const { totals, header } = totalsOf(input);
    const written = await writeContent(tx, id, input, resolved, totals, true);
    const [row] = await tx
      .update(financeDocuments)
      .set({ ...headerOf(input), ...header, entryState: 1, ...updatedBy(principal.username) })
      .where(eq(financeDocuments.id, id))
      .returning();
    await recordAudit(tx, {
      entity: 'financeDocument',
      entityId: id,
      action: 'update',
      companyId: current.companyId,
      user: principal,
      requestId,
    });
    return describe(tx, row ?? current, written, head);
  });
}

export async function deleteFinanceDocument(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  requestId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await documentOf(tx, companyId, id, true);
    assertEditable(current);
    // Deleting a transformation's draft result gives its sources back to be transformed again.
    await tx
      .update(financeDocuments)
      .set({ transformedIntoId: null })
      .where(eq(financeDocuments.transformedIntoId, id));
    await tx.delete(financeDocuments).where(eq(financeDocuments.id, id));
    await recordAudit(tx, {
      entity: 'financeDocument',
      entityId: id,
      action: 'delete',
      companyId: current.companyId,
      user: principal,
      requestId,
    });
  });
}

/**
 * A credit note of a finalized document: a draft in the series' related series with the same trader,
 * lines and taxes, pointing at the original. The user adjusts it (a partial credit) and finalizes it.
 */
export async function createCreditNote(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  date: string,
  requestId: string,
): Promise<FinanceDocument> {
  const original = await getFinanceDocument(db, companyId, id);
  if (original.entryState !== FINALIZED) throw new AppError(409, financeErrors.notFinalized);
  const series = await seriesOf(db, original.companyId, original.seriesId);
  if (!series?.relseqid) throw new AppError(409, financeErrors.noRelatedSeries);
  return createFinanceDocument(
    db,
    principal,
    original.companyId,
    {
      seriesId: series.relseqid,
      date,
      traderId: original.traderId,
      paymentMethod: original.paymentMethod as SaveFinanceDocument['paymentMethod'],
      status: 1,
      notes: null,
      lines: original.lines.map((l) => ({
        serviceId: l.serviceId,
        itemId: l.itemId,
        warehouseId: l.warehouseId,
        descr: l.descr,
        quantity: l.quantity,
        price: l.price,
        discount: l.discount,
        vatPercent: l.vatPercent,
      })),
      taxes: original.taxes.map((t) => ({
        kind: t.kind as SaveFinanceDocument['taxes'][number]['kind'],
        percent: t.percent,
        amount: t.percent === null ? t.amount : null,
      })),
    },
    requestId,
    { relatedDocumentId: original.id },
  );
}
