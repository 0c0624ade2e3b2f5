import {
  type Case,
  type caseTimelineEntrySchema,
  formatProtocolId,
  type saveCaseSchema,
  utilityYear,
} from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../../db/client.ts';
import { diff, recordAudit } from '../../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../../platform/audit-columns.ts';
import type { Principal } from '../../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../../platform/db-errors.ts';
import { AppError, badRequest, notFound } from '../../../platform/errors.ts';
import { historyOf } from '../documents/history.ts';
import { visibleDocuments } from '../documents/visibility.ts';
import { caseDocuments, cases, caseTypes, documents } from '../protocol.schema.ts';

type SaveCase = z.output<typeof saveCaseSchema>;
type CaseRow = typeof cases.$inferSelect;
type TimelineEntry = z.infer<typeof caseTimelineEntrySchema>;

const user = (principal: Principal) => ({ userId: principal.userId, username: principal.username });

export const caseErrorKeys = {
  codeTaken: 'error.case_code_taken',
  documentNotLinkable: 'error.case_document_not_linkable',
} as const;

/** The case with this id of the company in use, or 404 (no existence leak). */
async function caseOf(tx: Tx, companyId: number, id: number, lock = false): Promise<CaseRow> {
  const query = tx.select().from(cases).where(eq(cases.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.companyId !== companyId) throw notFound();
  return row;
}

/**
 * The next free code of the year for the company, e.g. "2026/0007": one more than the highest
 * "YYYY/NNNN" code of that year. Serialised per company by an advisory lock held to commit, so two
 * cases opened at once never get the same code (the unique index would refuse it anyway).
 */
export async function nextCaseCode(tx: Tx, companyId: number): Promise<string> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(72510006, ${companyId})`);
  const year = utilityYear();
  const prefix = `${year}/`;
  const [row] = await tx
    .select({
      last: sql<number | null>`max(split_part(${cases.code}, '/', 2)::int)`,
    })
    .from(cases)
    .where(and(eq(cases.companyId, companyId), sql`${cases.code} ~ ${`^${year}/[0-9]{1,9}$`}`));
  const next = Number(row?.last ?? 0) + 1;
  return `${prefix}${String(next).padStart(4, '0')}`;
}

async function checkCaseType(tx: Tx, companyId: number, caseTypeId: number | null | undefined) {
  if (caseTypeId === null || caseTypeId === undefined) return;
  const [type] = await tx
    .select({ id: caseTypes.id })
    .from(caseTypes)
    .where(and(eq(caseTypes.id, caseTypeId), eq(caseTypes.companyId, companyId)));
  if (!type) throw badRequest([{ field: 'caseTypeId', key: 'validation.invalid', params: {} }]);
}

/**
 * Links documents to a case: each must be a document of the case's company that the asker sees and
 * that is not deleted (else 404 for one not seen, 409 for a deleted one). Already linked ones are
 * skipped. Each new link is a line of the document's history.
 */
export async function linkDocuments(
  tx: Tx,
  principal: Principal,
  row: CaseRow,
  documentIds: readonly number[],
  requestId: string,
  options: { audit?: boolean } = {},
): Promise<number[]> {
  const unique = [...new Set(documentIds)];
  if (unique.length === 0) return [];
  const seen = await tx
    .select({ id: documents.id, state: documents.state })
    .from(documents)
    .where(and(inArray(documents.id, unique), visibleDocuments(principal, row.companyId)));
  if (seen.length !== unique.length) throw notFound();
  if (seen.some((d) => d.state === 9)) throw new AppError(409, caseErrorKeys.documentNotLinkable);
  const existing = await tx
    .select({ documentId: caseDocuments.documentId })
    .from(caseDocuments)
    .where(and(eq(caseDocuments.caseId, row.id), inArray(caseDocuments.documentId, unique)));
  const linked = new Set(existing.map((e) => e.documentId));
  const added = unique.filter((id) => !linked.has(id));
  if (added.length === 0) return [];
  await tx
    .insert(caseDocuments)
    .values(added.map((documentId) => ({ caseId: row.id, documentId, addedBy: principal.username })));
  for (const documentId of options.audit === false ? [] : added) {
    await recordAudit(tx, {
      entity: 'document',
      entityId: documentId,
      action: 'case_added',
      companyId: row.companyId,
      user: user(principal),
      changes: { case: { before: null, after: `${row.code} ${row.name}` } },
      requestId,
    });
  }
  return added;
}

async function unlinkDocuments(
  tx: Tx,
  principal: Principal,
  row: CaseRow,
  documentIds: readonly number[],
  requestId: string,
): Promise<void> {
  if (documentIds.length === 0) return;
  await tx
    .delete(caseDocuments)
    .where(and(eq(caseDocuments.caseId, row.id), inArray(caseDocuments.documentId, [...documentIds])));
  for (const documentId of documentIds) {
    await recordAudit(tx, {
      entity: 'document',
      entityId: documentId,
      action: 'case_removed',
      companyId: row.companyId,
      user: user(principal),
      changes: { case: { before: `${row.code} ${row.name}`, after: null } },
      requestId,
    });
  }
}

async function describeCase(tx: Tx, principal: Principal, row: CaseRow): Promise<Case> {
  const [type] = row.caseTypeId
    ? await tx
        .select({ id: caseTypes.id, descr: caseTypes.descr })
        .from(caseTypes)
        .where(eq(caseTypes.id, row.caseTypeId))
    : [];
  const linked = await tx
    .select({
      id: documents.id,
      kind: documents.kind,
      protocolNumber: documents.protocolNumber,
      protocolYear: documents.protocolYear,
      subject: documents.subject,
      protocolDate: documents.protocolDate,
      correspondents: documents.correspondents,
      addedAt: caseDocuments.addedAt,
      addedBy: caseDocuments.addedBy,
    })
    .from(caseDocuments)
    .innerJoin(documents, eq(documents.id, caseDocuments.documentId))
    .where(and(eq(caseDocuments.caseId, row.id), visibleDocuments(principal, row.companyId)))
    .orderBy(asc(caseDocuments.addedAt), asc(documents.id));
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    caseType: type ?? null,
    agencies: row.agencies,
    comments: row.comments,
    closed: row.closed,
    documents: linked.map((d) => ({
      id: d.id,
      kind: d.kind,
      protocolId: formatProtocolId(d.protocolNumber, d.protocolYear),
      subject: d.subject,
      protocolDate: d.protocolDate?.toISOString() ?? null,
      correspondents: d.correspondents,
      addedAt: d.addedAt.toISOString(),
      addedBy: d.addedBy,
    })),
    ...auditFieldsOf(row),
  };
}

export async function getCase(db: Db, principal: Principal, companyId: number, id: number): Promise<Case> {
  return db.transaction(async (tx) => describeCase(tx, principal, await caseOf(tx, companyId, id)));
}

const codeTaken = (cause: unknown) => new AppError(409, caseErrorKeys.codeTaken, {}, undefined, cause);

/** Inserts a case (code given or the next of the year), links its documents, writes the audit line. */
export async function insertCase(
  tx: Tx,
  principal: Principal,
  companyId: number,
  input: Pick<SaveCase, 'code' | 'name' | 'caseTypeId' | 'agencies'> &
    Partial<Pick<SaveCase, 'comments' | 'closed'>>,
  documentIds: readonly number[],
  requestId: string,
): Promise<CaseRow> {
  await checkCaseType(tx, companyId, input.caseTypeId);
  const code = input.code ?? (await nextCaseCode(tx, companyId));
  const [taken] = await tx
    .select({ id: cases.id })
    .from(cases)
    .where(and(eq(cases.companyId, companyId), eq(cases.code, code)));
  if (taken) throw codeTaken(undefined);
  const [row] = await tx
    .insert(cases)
    .values({
      companyId,
      code,
      name: input.name,
      caseTypeId: input.caseTypeId ?? null,
      agencies: input.agencies ?? null,
      comments: input.comments ?? null,
      closed: input.closed ?? false,
      createuser: principal.username,
    })
    .returning();
  if (!row) throw new Error('case not created');
  await recordAudit(tx, {
    entity: 'case',
    entityId: row.id,
    action: 'create',
    companyId,
    user: user(principal),
    changes: { code: { before: null, after: code }, name: { before: null, after: row.name } },
    requestId,
  });
  await linkDocuments(tx, principal, row, documentIds, requestId);
  return row;
}

async function uniqueCode<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgError(error)?.code === UNIQUE_VIOLATION) throw codeTaken(error);
    throw error;
  }
}

export async function createCase(
  db: Db,
  principal: Principal,
  companyId: number,
  input: SaveCase,
  requestId: string,
): Promise<Case> {
  return uniqueCode(() =>
    db.transaction(async (tx) => {
      const row = await insertCase(tx, principal, companyId, input, input.documentIds, requestId);
      return describeCase(tx, principal, row);
    }),
  );
}

/**
 * Changes a case's details. `documentIds` given here are ADDED to the case (never removed: removing a
 * document is DELETE /api/cases/{id}/documents/{documentId}), so a form that does not send the list
 * cannot unlink anything by accident. An empty code gives the next code of the year.
 */
export async function updateCase(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  input: SaveCase,
  requestId: string,
): Promise<Case> {
  return uniqueCode(() =>
    db.transaction(async (tx) => {
      const before = await caseOf(tx, companyId, id, true);
      await checkCaseType(tx, before.companyId, input.caseTypeId);
      const code = input.code ?? before.code;
      if (code !== before.code) {
        const [taken] = await tx
          .select({ id: cases.id })
          .from(cases)
          .where(and(eq(cases.companyId, before.companyId), eq(cases.code, code)));
        if (taken) throw codeTaken(undefined);
      }
      const values = {
        code,
        name: input.name,
        caseTypeId: input.caseTypeId ?? null,
        agencies: input.agencies,
        comments: input.comments,
        closed: input.closed,
      };
      const [row] = await tx
        .update(cases)
        .set({ ...values, ...updatedBy(principal.username) })
        .where(eq(cases.id, id))
        .returning();
      if (!row) throw notFound();
      await recordAudit(tx, {
        entity: 'case',
        entityId: id,
        action: 'update',
        companyId: row.companyId,
        user: user(principal),
        changes: diff(before as unknown as Record<string, unknown>, values),
        requestId,
      });
      await linkDocuments(tx, principal, row, input.documentIds, requestId);
      return describeCase(tx, principal, row);
    }),
  );
}

/** Deletes case folders; their documents stay, unlinked (a line in each document's history). */
export async function deleteCases(
  db: Db,
  principal: Principal,
  companyId: number,
  ids: number[],
  requestId: string,
): Promise<void> {
  const unique = [...new Set(ids)];
  await db.transaction(async (tx) => {
    const rows = await tx.select().from(cases).where(inArray(cases.id, unique)).for('update');
    if (rows.length !== unique.length || rows.some((r) => r.companyId !== companyId)) {
      throw notFound();
    }
    for (const row of rows) {
      const linked = await tx
        .select({ documentId: caseDocuments.documentId })
        .from(caseDocuments)
        .where(eq(caseDocuments.caseId, row.id));
      await unlinkDocuments(
        tx,
        principal,
        row,
        linked.map((l) => l.documentId),
        requestId,
      );
      await tx.delete(cases).where(eq(cases.id, row.id));
      await recordAudit(tx, {
        entity: 'case',
        entityId: row.id,
        action: 'delete',
        companyId: row.companyId,
        user: user(principal),
        changes: { code: { before: row.code, after: null }, name: { before: row.name, after: null } },
        requestId,
      });
    }
  });
}

export async function addCaseDocuments(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  documentIds: number[],
  requestId: string,
): Promise<Case> {
  return db.transaction(async (tx) => {
    const row = await caseOf(tx, companyId, id, true);
    await linkDocuments(tx, principal, row, documentIds, requestId);
    return describeCase(tx, principal, row);
  });
}

export async function removeCaseDocument(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  documentId: number,
  requestId: string,
): Promise<Case> {
  return db.transaction(async (tx) => {
    const row = await caseOf(tx, companyId, id, true);
    const [link] = await tx
      .select({ documentId: caseDocuments.documentId })
      .from(caseDocuments)
      .innerJoin(documents, eq(documents.id, caseDocuments.documentId))
      .where(
        and(
          eq(caseDocuments.caseId, id),
          eq(caseDocuments.documentId, documentId),
          visibleDocuments(principal, row.companyId),
        ),
      );
    if (!link) throw notFound();
    await unlinkDocuments(tx, principal, row, [documentId], requestId);
    return describeCase(tx, principal, row);
  });
}

/** Every history line of every document of the case that the asker sees, newest first. */
export async function caseTimeline(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
): Promise<TimelineEntry[]> {
  return db.transaction(async (tx) => {
    const row = await caseOf(tx, companyId, id);
    const linked = await tx
      .select({
        id: documents.id,
        kind: documents.kind,
        protocolNumber: documents.protocolNumber,
        protocolYear: documents.protocolYear,
        subject: documents.subject,
      })
      .from(caseDocuments)
      .innerJoin(documents, eq(documents.id, caseDocuments.documentId))
      .where(and(eq(caseDocuments.caseId, row.id), visibleDocuments(principal, row.companyId)));
    const links = new Map(
      linked.map((d) => [
        d.id,
        {
          id: d.id,
          kind: d.kind,
          protocolId: formatProtocolId(d.protocolNumber, d.protocolYear),
          subject: d.subject,
        },
      ]),
    );
    const lines = await historyOf(tx, [...links.keys()], 'newest');
    return lines.map(({ documentId, ...line }) => ({
      ...line,
      document: links.get(documentId) as TimelineEntry['document'],
    }));
  });
}
