import {
  type Certification,
  type CertificationListItem,
  type CreateCertification,
  certificationsCatalog,
  FINALIZED,
  INCOME_KINDS,
} from '@protocol/contracts';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditFieldsOf } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { defineList } from '../../platform/list/list.ts';
import {
  financeAccounts,
  financeCertificationCounters,
  financeCertificationLines,
  financeCertifications,
} from './finance.schema.ts';

/**
 * Income certification: a draft gathers the period's finalized, not cancelled income documents
 * (invoices, receipts, water bills; credit notes subtract) that no certification holds yet, and sums
 * their lines per income account. Holding a document is a row keyed by the document, so a document is
 * certified once, also when two clerks certify the same month at once. Finalizing numbers it.
 */

export const certificationErrors = {
  none: 'finance.error.noAvailableDocuments',
  alreadyCertified: 'finance.error.alreadyCertified',
  finalized: 'finance.error.finalized',
} as const;

type CertificationRow = typeof financeCertifications.$inferSelect;

/** The certification with this id of the company in use, or 404. */
async function certificationOf(tx: Db | Tx, companyId: number, id: number, lock = false) {
  const query = tx.select().from(financeCertifications).where(eq(financeCertifications.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.companyId !== companyId) throw notFound();
  return row;
}

async function describe(db: Db | Tx, row: CertificationRow): Promise<Certification> {
  const lines = await db
    .select({
      accountId: financeCertificationLines.accountId,
      accountCode: financeAccounts.code,
      accountDescr: financeAccounts.descr,
      documents: financeCertificationLines.documents,
      net: financeCertificationLines.net,
      vat: financeCertificationLines.vat,
      total: financeCertificationLines.total,
    })
    .from(financeCertificationLines)
    .leftJoin(financeAccounts, eq(financeAccounts.id, financeCertificationLines.accountId))
    .where(eq(financeCertificationLines.certificationId, row.id))
    .orderBy(asc(financeAccounts.code));
  return {
    id: row.id,
    companyId: row.companyId,
    number: row.number,
    year: row.year,
    date: row.date,
    periodFrom: row.periodFrom,
    periodTo: row.periodTo,
    entryState: row.entryState,
    documents: row.documents,
    net: row.net,
    vat: row.vat,
    total: row.total,
    notes: row.notes,
    lines,
    ...auditFieldsOf(row),
  };
}

export async function getCertification(db: Db, companyId: number, id: number): Promise<Certification> {
  return describe(db, await certificationOf(db, companyId, id));
}

const kinds = sql.join(
  INCOME_KINDS.map((kind) => sql`${kind}`),
  sql`, `,
);

export async function createCertification(
  db: Db,
  principal: Principal,
  companyId: number,
  input: CreateCertification,
  requestId: string,
): Promise<Certification> {
  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(financeCertifications)
        .values({
          companyId,
          date: input.date,
          periodFrom: input.periodFrom,
          periodTo: input.periodTo,
          notes: input.notes,
          createuser: principal.username,
        })
        .returning();
      if (!created) throw new Error('insert returned no row');
      const held = await tx.execute(sql`
        INSERT INTO finance_certified_documents (document_id, certification_id)
        SELECT d.id, ${created.id}::int
        FROM finance_documents d JOIN finance_series s ON s.id = d.series_id
        WHERE d.company_id = ${companyId} AND d.entry_state = ${FINALIZED} AND d.status <> 9
          AND s.kind IN (${kinds}) AND d.date BETWEEN ${input.periodFrom}::date AND ${input.periodTo}::date
          AND NOT EXISTS (SELECT 1 FROM finance_certified_documents c WHERE c.document_id = d.id)
        RETURNING document_id`);
      const documents = (held as unknown as { rows: unknown[] }).rows.length;
      if (documents === 0) throw new AppError(409, certificationErrors.none);
      // Credit notes (debit/credit 2) subtract what they credit.
      await tx.execute(sql`
        INSERT INTO finance_certification_lines (certification_id, account_id, documents, net, vat, total)
        SELECT ${created.id}::int, l.account_id, count(DISTINCT l.document_id),
          sum(CASE WHEN s.debit_credit = 2 THEN -l.net ELSE l.net END),
          sum(CASE WHEN s.debit_credit = 2 THEN -l.vat ELSE l.vat END),
          sum(CASE WHEN s.debit_credit = 2 THEN -l.total ELSE l.total END)
        FROM finance_certified_documents c
        JOIN finance_document_lines l ON l.document_id = c.document_id
        JOIN finance_documents d ON d.id = c.document_id
        JOIN finance_series s ON s.id = d.series_id
        WHERE c.certification_id = ${created.id}
        GROUP BY l.account_id`);
      const [row] = await tx
        .update(financeCertifications)
        .set({
          documents,
          net: sql`(SELECT coalesce(sum(net), 0) FROM finance_certification_lines WHERE certification_id = ${created.id})`,
          vat: sql`(SELECT coalesce(sum(vat), 0) FROM finance_certification_lines WHERE certification_id = ${created.id})`,
          total: sql`(SELECT coalesce(sum(total), 0) FROM finance_certification_lines WHERE certification_id = ${created.id})`,
        })
        .where(eq(financeCertifications.id, created.id))
        .returning();
      await recordAudit(tx, {
        entity: 'financeCertification',
        entityId: created.id,
        action: 'create',
        companyId,
        user: principal,
        requestId,
      });
      return describe(tx, row ?? created);
    });
  } catch (error) {
    // Another certification took one of the documents between our check and our insert.
    if (pgError(error)?.code === UNIQUE_VIOLATION)
      throw new AppError(409, certificationErrors.alreadyCertified);
    throw error;
  }
}

/** Numbers the certification (the company's next for the year of its date) and locks it. */
export async function finalizeCertification(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  requestId: string,
): Promise<Certification> {
  return db.transaction(async (tx) => {
    const row = await certificationOf(tx, companyId, id, true);
    if (row.entryState === FINALIZED) throw new AppError(409, certificationErrors.finalized);
    const year = Number(row.date.slice(0, 4));
    await recordAudit(tx, {
      entity: 'financeCertification',
      entityId: id,
      action: 'finalized',
      companyId: row.companyId,
      user: principal,
      requestId,
    });
    await tx.execute(sql`
      WITH taken AS (
        INSERT INTO ${financeCertificationCounters} (company_id, year, last) VALUES (${row.companyId}, ${year}, 1)
        ON CONFLICT (company_id, year) DO UPDATE SET last = ${financeCertificationCounters}.last + 1
        RETURNING last
      )
      UPDATE finance_certifications SET number = taken.last, year = ${year}, entry_state = ${FINALIZED},
        defuser = ${principal.username}, defdate = clock_timestamp()
      FROM taken WHERE finance_certifications.id = ${id}`);
    return describe(tx, await certificationOf(tx, companyId, id));
  });
}

/** Deletes a draft; its documents may be certified again. */
export async function deleteCertification(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  requestId: string,
) {
  await db.transaction(async (tx) => {
    const row = await certificationOf(tx, companyId, id, true);
    if (row.entryState === FINALIZED) throw new AppError(409, certificationErrors.finalized);
    await tx.delete(financeCertifications).where(eq(financeCertifications.id, id));
    await recordAudit(tx, {
      entity: 'financeCertification',
      entityId: id,
      action: 'delete',
      companyId: row.companyId,
      user: principal,
      requestId,
    });
  });
}

export const certificationsOfCompany = (companyId: number): SQL =>
  eq(financeCertifications.companyId, companyId);

/** GET /api/finance/certifications/search. */
export function certificationsList(db: Db) {
  const columns = {
    id: financeCertifications.id,
    number: financeCertifications.number,
    year: financeCertifications.year,
    date: financeCertifications.date,
    periodFrom: financeCertifications.periodFrom,
    periodTo: financeCertifications.periodTo,
    entryState: financeCertifications.entryState,
    documents: financeCertifications.documents,
    total: financeCertifications.total,
  };
  return defineList<CertificationListItem>({
    catalog: certificationsCatalog,
    columns: {
      ...columns,
      date: { day: sql`${financeCertifications.date}` },
      periodFrom: { day: sql`${financeCertifications.periodFrom}` },
      periodTo: { day: sql`${financeCertifications.periodTo}` },
    },
    id: financeCertifications.id,
    fetch: (where, orderBy, limit, offset) =>
      db
        .select(columns)
        .from(financeCertifications)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    async count(where) {
      const [row] = await db.select({ n: count() }).from(financeCertifications).where(and(where));
      return row?.n ?? 0;
    },
  });
}
