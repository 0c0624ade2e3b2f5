import {
  documentTotals,
  FINALIZED,
  type FinanceDocumentListItem,
  moneyString,
  TRANSFORMABLE_KINDS,
  TRANSFORMATION_TARGET_KINDS,
  type TransformationRequest,
  type TransformationResult,
} from '@protocol/contracts';
import { and, asc, eq, gte, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { traders } from '../traders/traders.schema.ts';
import { seriesOf } from './documents.service.ts';
import { financeDocumentLines, financeDocuments, financeSeries } from './finance.schema.ts';

/**
 * Transformation (μετασχηματισμός): finalized delivery notes or orders become draft invoices in a
 * target series — 1 one per source, 2 one per trader, 3 all in one (one trader). Each source points
 * at its result and is transformed once: the link is set only where it is still empty, in the
 * transaction that creates the results, so two clerks transforming the same note cannot both succeed.
 */

export const transformationErrors = {
  noneAvailable: 'finance.error.noAvailableDocuments',
  alreadyTransformed: 'finance.error.alreadyTransformed',
  tradersDiffer: 'finance.error.tradersDiffer',
} as const;

type Source = FinanceDocumentListItem & { traderId: number | null };

const sourceColumns = {
  id: financeDocuments.id,
  seriesCode: financeSeries.code,
  seriesDescr: financeSeries.descr,
  seriesKind: financeSeries.kind,
  number: financeDocuments.number,
  year: financeDocuments.year,
  date: financeDocuments.date,
  traderId: financeDocuments.traderId,
  traderName: traders.fullname,
  traderVatnumber: traders.vatnumber,
  net: financeDocuments.net,
  vat: financeDocuments.vat,
  payable: financeDocuments.payable,
  entryState: financeDocuments.entryState,
  status: financeDocuments.status,
};

/** What may still be transformed: finalized, not cancelled, not yet transformed delivery notes and orders. */
const available = (companyId: number) =>
  and(
    eq(financeDocuments.companyId, companyId),
    eq(financeDocuments.entryState, FINALIZED),
    ne(financeDocuments.status, 9),
    isNull(financeDocuments.transformedIntoId),
    inArray(financeSeries.kind, [...TRANSFORMABLE_KINDS]),
  );

export async function transformationCandidates(
  db: Db,
  companyId: number,
  filter: { traderId?: number; from?: string; to?: string },
): Promise<Source[]> {
  return db
    .select(sourceColumns)
    .from(financeDocuments)
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
    .where(
      and(
        available(companyId),
        filter.traderId ? eq(financeDocuments.traderId, filter.traderId) : undefined,
        filter.from ? gte(financeDocuments.date, filter.from) : undefined,
        filter.to ? lte(financeDocuments.date, filter.to) : undefined,
      ),
    )
    .orderBy(asc(financeDocuments.date), asc(financeDocuments.id));
}

/** The sources, checked: the company's, still available; grouped per result by the mode. */
async function plan(tx: Db | Tx, companyId: number, input: TransformationRequest, lock: boolean) {
  const target = await seriesOf(tx, companyId, input.targetSeriesId);
  if (!target?.active || !(TRANSFORMATION_TARGET_KINDS as readonly string[]).includes(target.kind)) {
    throw badRequest([{ field: 'targetSeriesId', key: 'validation.invalid', params: {} }]);
  }
  const ids = [...new Set(input.sourceIds)];
  const query = tx
    .select(sourceColumns)
    .from(financeDocuments)
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
    .where(and(eq(financeDocuments.companyId, companyId), inArray(financeDocuments.id, ids)))
    .orderBy(asc(financeDocuments.date), asc(financeDocuments.id));
  const found: Source[] = lock ? await query.for('update', { of: financeDocuments }) : await query;
  if (found.length !== ids.length) throw new AppError(409, transformationErrors.noneAvailable);
  const [transformed] = await tx
    .select({ id: financeDocuments.id })
    .from(financeDocuments)
    .where(and(inArray(financeDocuments.id, ids), sql`${financeDocuments.transformedIntoId} IS NOT NULL`))
    .limit(1);
  if (transformed) throw new AppError(409, transformationErrors.alreadyTransformed);
  const eligible = await tx
    .select({ id: financeDocuments.id })
    .from(financeDocuments)
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .where(and(available(companyId), inArray(financeDocuments.id, ids)));
  if (eligible.length !== ids.length) throw new AppError(409, transformationErrors.noneAvailable);

  const groups = new Map<string, Source[]>();
  for (const source of found) {
    const key = input.mode === 1 ? String(source.id) : input.mode === 2 ? String(source.traderId) : 'all';
    groups.set(key, [...(groups.get(key) ?? []), source]);
  }
  if (input.mode === 3 && new Set(found.map((s) => s.traderId)).size > 1) {
    throw badRequest([{ field: 'sourceIds', key: transformationErrors.tradersDiffer, params: {} }]);
  }
  const lines = await tx
    .select()
    .from(financeDocumentLines)
    .where(inArray(financeDocumentLines.documentId, ids))
    .orderBy(asc(financeDocumentLines.documentId), asc(financeDocumentLines.position));
  return { target, groups: [...groups.values()], lines };
}

const numberOf = (s: Source) => `${s.seriesCode}-${s.number}/${s.year}`;

/** What the transformation would create, without creating it. */
export async function previewTransformation(
  db: Db,
  companyId: number,
  input: TransformationRequest,
): Promise<TransformationResult> {
  const { groups, lines } = await plan(db, companyId, input, false);
  return { ids: [], documents: groups.map((group) => summary(group, lines)) };
}

function summary(group: Source[], lines: (typeof financeDocumentLines.$inferSelect)[]) {
  const ids = new Set(group.map((s) => s.id));
  const own = lines.filter((l) => ids.has(l.documentId));
  const totals = documentTotals(own);
  return {
    traderId: group[0]?.traderId ?? null,
    traderName: group[0]?.traderName ?? null,
    sourceIds: group.map((s) => s.id),
    sources: group.map(numberOf),
    lines: own.length,
    net: moneyString(totals.net),
    vat: moneyString(totals.vat),
    payable: moneyString(totals.payable),
  };
}

/** Creates the results as drafts in the target series and links every source to its result. */
export async function transform(
  db: Db,
  principal: Principal,
  companyId: number,
  input: TransformationRequest,
  requestId: string,
): Promise<TransformationResult> {
  return db.transaction(async (tx) => {
    const { target, groups, lines } = await plan(tx, companyId, input, true);
    const ids: number[] = [];
    for (const group of groups) {
      const info = summary(group, lines);
      const sourceIds = new Set(info.sourceIds);
      const own = lines.filter((l) => sourceIds.has(l.documentId));
      const totals = documentTotals(own);
      const [created] = await tx
        .insert(financeDocuments)
        .values({
          companyId,
          seriesId: target.id,
          date: input.date,
          traderId: info.traderId,
          paymentMethod: 3,
          status: 1,
          entryState: 0,
          notes: info.sources.join(', '),
          net: moneyString(totals.net),
          discount: moneyString(totals.discount),
          vat: moneyString(totals.vat),
          gross: moneyString(totals.gross),
          payable: moneyString(totals.payable),
          createuser: principal.username,
        })
        .returning({ id: financeDocuments.id });
      if (!created) throw new Error('insert returned no row');
      await tx.insert(financeDocumentLines).values(
        own.map(({ id: _, documentId: __, ...line }, index) => ({
          ...line,
          documentId: created.id,
          position: index + 1,
        })),
      );
      const linked = await tx
        .update(financeDocuments)
        .set({ transformedIntoId: created.id })
        .where(and(inArray(financeDocuments.id, info.sourceIds), isNull(financeDocuments.transformedIntoId)))
        .returning({ id: financeDocuments.id });
      if (linked.length !== info.sourceIds.length)
        throw new AppError(409, transformationErrors.alreadyTransformed);
      await recordAudit(tx, {
        entity: 'financeDocument',
        entityId: created.id,
        action: 'transformed',
        companyId,
        user: principal,
        requestId,
        comments: info.sources.join(', '),
      });
      ids.push(created.id);
    }
    return { ids, documents: groups.map((group) => summary(group, lines)) };
  });
}
