import {
  type DocumentActionName,
  type DocumentActionResult,
  documentActionName,
  type documentActionRequestSchema,
  formatProtocolId,
  type HistoryEntry,
} from '@protocol/contracts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../../db/client.ts';
import { recordAudit } from '../../../platform/audit.ts';
import { updatedBy } from '../../../platform/audit-columns.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError, badRequest, notFound } from '../../../platform/errors.ts';
import { companyUsers } from '../../companies/companies.schema.ts';
import { notify } from '../../notifications/api.ts';
import { userGroupMembers, userGroups } from '../../users/groups.schema.ts';
import { users } from '../../users/users.schema.ts';
import { insertCase, linkDocuments } from '../cases/cases.service.ts';
import { loadDocument } from '../documents/documents.answer.ts';
import { ASSIGNMENT_KIND, type DocumentRow, TRADER_ROLE } from '../documents/documents.common.ts';
import { createDraftFrom } from '../documents/documents.drafts.ts';
import { assertAction, documentFacts } from '../documents/documents.facts.ts';
import { documentContentHash } from '../documents/documents.hash.ts';
import { historyOf } from '../documents/history.ts';
import { visibleDocumentRow } from '../documents/visibility.ts';
import {
  cases,
  documentAssignments,
  documentAttachments,
  documentSignatures,
  documents,
  documentTraders,
  documentTypes,
} from '../protocol.schema.ts';
import { type ActionServices, actionErrorKeys, liveAttachments, mailDocument } from './actions.mail.ts';

/**
 * The fourteen document actions (spec §3 'Document actions', POST /api/document/actions). Each runs in
 * ONE transaction that first locks the document row, checks the action's rule (documents.rules.ts, the
 * same verdicts the screen shows), applies the effect, writes its line to the audit trail (entity
 * 'document', the action's name, comments, changes before/after) and, for charge/share/return, stores
 * the notifications. edit and history change nothing and write no line (the save after an edit does).
 */

export type DocumentActionRequest = z.output<typeof documentActionRequestSchema>;
export { type ActionServices, actionErrorKeys };

/** Notification message keys (texts in i18n/protocol documents.notification). */
export const notificationKeys = {
  charged: 'documents.notification.charged',
  shared: 'documents.notification.shared',
  returned: 'documents.notification.returned',
} as const;

/** Fields an edit may change: a registered document keeps its registration (kind, book). */
const EDITABLE = [
  'name',
  'subject',
  'subjectCategoryId',
  'documentTypeId',
  'protocolIdSender',
  'protocolSendDate',
  'senders',
  'receivers',
  'folder',
  'publications',
  'metadata',
  'comments',
] as const;

const auditUser = (principal: Principal) => ({ userId: principal.userId, username: principal.username });

type Changes = Record<string, { before: unknown; after: unknown }>;

interface Context {
  tx: Tx;
  principal: Principal;
  row: DocumentRow;
  request: DocumentActionRequest;
  requestId: string;
  services: ActionServices;
}

interface Effect {
  changes?: Changes;
  /** Written by the action itself (or none: edit, history). */
  noAudit?: boolean;
  createdDocumentId?: number | null;
  caseId?: number | null;
  history?: HistoryEntry[] | null;
  editable?: string[] | null;
}

const label = (row: DocumentRow) => formatProtocolId(row.protocolNumber, row.protocolYear) ?? `#${row.id}`;
const fullName = (u: { firstname: string; lastname: string }) => `${u.firstname} ${u.lastname}`.trim();

/** The operators of the document's company by id, active ones only; 400 on the field when one is not. */
async function operatorsOfCompany(tx: Tx, companyId: number, ids: readonly number[], field: string) {
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await tx
        .select({ id: users.id, firstname: users.firstname, lastname: users.lastname })
        .from(users)
        .innerJoin(
          companyUsers,
          and(eq(companyUsers.userId, users.id), eq(companyUsers.companyId, companyId)),
        )
        .where(and(inArray(users.id, unique), eq(users.active, true)))
    : [];
  if (rows.length !== unique.length) {
    throw badRequest([{ field, key: 'validation.invalid', params: {} }]);
  }
  return rows;
}

async function groupOfCompany(tx: Tx, companyId: number, groupId: number) {
  const [group] = await tx
    .select({ id: userGroups.id, name: userGroups.name })
    .from(userGroups)
    .where(and(eq(userGroups.id, groupId), eq(userGroups.companyId, companyId)));
  if (!group) throw badRequest([{ field: 'groupId', key: 'validation.invalid', params: {} }]);
  const members = await tx
    .select({ userId: userGroupMembers.userId })
    .from(userGroupMembers)
    .innerJoin(users, eq(users.id, userGroupMembers.userId))
    .where(and(eq(userGroupMembers.groupId, groupId), eq(users.active, true)));
  return { ...group, memberIds: members.map((m) => m.userId) };
}

/** The display of the current charge: "operator" or "group" (or null). */
async function chargeLabel(tx: Tx, row: Pick<DocumentRow, 'chargedUserId' | 'chargedGroupId'>) {
  const parts: string[] = [];
  if (row.chargedUserId) {
    const [u] = await tx
      .select({ firstname: users.firstname, lastname: users.lastname })
      .from(users)
      .where(eq(users.id, row.chargedUserId));
    if (u) parts.push(fullName(u));
  }
  if (row.chargedGroupId) {
    const [g] = await tx
      .select({ name: userGroups.name })
      .from(userGroups)
      .where(eq(userGroups.id, row.chargedGroupId));
    if (g) parts.push(g.name);
  }
  return parts.length ? parts.join(' / ') : null;
}

async function setCharge(
  ctx: Context,
  target: { userId: number | null; groupId: number | null },
): Promise<Changes> {
  const { tx, principal, row, request } = ctx;
  const before = await chargeLabel(tx, row);
  const now = new Date();
  await tx
    .update(documentAssignments)
    .set({ endedAt: now })
    .where(
      and(
        eq(documentAssignments.documentId, row.id),
        eq(documentAssignments.kind, ASSIGNMENT_KIND.charge),
        isNull(documentAssignments.endedAt),
      ),
    );
  await tx.insert(documentAssignments).values({
    documentId: row.id,
    kind: ASSIGNMENT_KIND.charge,
    userId: target.userId,
    groupId: target.groupId,
    byUserId: principal.userId,
    comments: request.comments,
  });
  await tx
    .update(documents)
    .set({ chargedUserId: target.userId, chargedGroupId: target.groupId, ...updatedBy(principal.username) })
    .where(eq(documents.id, row.id));
  const after = await chargeLabel(tx, { chargedUserId: target.userId, chargedGroupId: target.groupId });
  return { chargedTo: { before, after } };
}

const notifyAbout = (ctx: Context, userIds: readonly number[], messageKey: string) =>
  notify(ctx.tx, {
    companyId: ctx.row.companyId,
    userIds,
    senderId: ctx.principal.userId,
    messageKey,
    params: {
      document: label(ctx.row),
      subject: ctx.row.subject.slice(0, 200),
      user: ctx.principal.username,
    },
    entity: 'document',
    entityId: ctx.row.id,
    comments: ctx.request.comments,
  });

async function setState(ctx: Context, state: number): Promise<Changes> {
  await ctx.tx
    .update(documents)
    .set({ state, ...updatedBy(ctx.principal.username) })
    .where(eq(documents.id, ctx.row.id));
  return { state: { before: ctx.row.state, after: state } };
}

/** Copies attachment rows to another document: the stored object is shared (objects are immutable). */
async function copyAttachments(
  tx: Tx,
  principal: Principal,
  rows: (typeof documentAttachments.$inferSelect)[],
  targetId: number,
) {
  if (rows.length === 0) return;
  await tx.insert(documentAttachments).values(
    rows.map((a) => ({
      documentId: targetId,
      fileName: a.fileName,
      contentType: a.contentType,
      size: a.size,
      sha256: a.sha256,
      storageKey: a.storageKey,
      version: 1,
      createuser: principal.username,
    })),
  );
}

const handlers: Record<DocumentActionName, (ctx: Context) => Promise<Effect>> = {
  async edit({ row }) {
    const registered = row.protocolNumber !== null;
    return {
      noAudit: true,
      editable: registered ? [...EDITABLE] : ['kind', ...EDITABLE, 'protocolBookId'],
    };
  },

  async send(ctx) {
    const { tx, principal, row, request } = ctx;
    const mail =
      request.sendMethod === 'email'
        ? await mailDocument(ctx.tx, ctx.row, ctx.request.comments, ctx.services)
        : null;
    const sentAt = new Date();
    await tx
      .update(documents)
      .set({ sendStatus: 2, sentAt, ...updatedBy(principal.username) })
      .where(eq(documents.id, row.id));
    return {
      changes: {
        sendStatus: { before: row.sendStatus, after: 2 },
        sentAt: { before: row.sentAt?.toISOString() ?? null, after: sentAt.toISOString() },
        ...(request.sendMethod ? { sendMethod: { before: null, after: request.sendMethod } } : {}),
        ...(mail
          ? {
              sentTo: { before: null, after: mail.accepted.join(', ') },
              messageId: { before: null, after: mail.messageId },
            }
          : {}),
      },
    };
  },

  async charge(ctx) {
    const { tx, row, request } = ctx;
    const userId = request.userId ?? null;
    const groupId = request.groupId ?? null;
    if ((userId === null) === (groupId === null)) {
      throw badRequest([
        { field: userId === null ? 'userId' : 'groupId', key: 'validation.required', params: {} },
      ]);
    }
    let recipients: number[];
    if (userId !== null) {
      await operatorsOfCompany(tx, row.companyId, [userId], 'userId');
      recipients = [userId];
    } else {
      recipients = (await groupOfCompany(tx, row.companyId, groupId as number)).memberIds;
    }
    const changes = await setCharge(ctx, { userId, groupId });
    await notifyAbout(ctx, recipients, notificationKeys.charged);
    return { changes };
  },

  async share(ctx) {
    const { tx, principal, row, request } = ctx;
    const ids = [...new Set(request.userIds ?? [])];
    if (ids.length === 0) throw badRequest([{ field: 'userIds', key: 'validation.required', params: {} }]);
    const operators = await operatorsOfCompany(tx, row.companyId, ids, 'userIds');
    const current = await tx
      .select({ userId: documentAssignments.userId })
      .from(documentAssignments)
      .where(
        and(
          eq(documentAssignments.documentId, row.id),
          eq(documentAssignments.kind, ASSIGNMENT_KIND.share),
          isNull(documentAssignments.endedAt),
          inArray(documentAssignments.userId, ids),
        ),
      );
    const already = new Set(current.map((c) => c.userId));
    const added = operators.filter((o) => !already.has(o.id));
    if (added.length > 0) {
      await tx.insert(documentAssignments).values(
        added.map((o) => ({
          documentId: row.id,
          kind: ASSIGNMENT_KIND.share,
          userId: o.id,
          byUserId: principal.userId,
          comments: request.comments,
        })),
      );
    }
    await notifyAbout(
      ctx,
      added.map((o) => o.id),
      notificationKeys.shared,
    );
    return { changes: { sharedWith: { before: null, after: added.map(fullName) } } };
  },

  async return(ctx) {
    const { tx, row } = ctx;
    const [active] = await tx
      .select({ byUserId: documentAssignments.byUserId })
      .from(documentAssignments)
      .where(
        and(
          eq(documentAssignments.documentId, row.id),
          eq(documentAssignments.kind, ASSIGNMENT_KIND.charge),
          isNull(documentAssignments.endedAt),
        ),
      )
      .orderBy(asc(documentAssignments.id))
      .limit(1);
    // The rule already refused a document with no active charge.
    const backTo = active?.byUserId ?? null;
    const changes = await setCharge(ctx, { userId: backTo, groupId: null });
    if (backTo !== null) await notifyAbout(ctx, [backTo], notificationKeys.returned);
    return { changes };
  },

  async history({ tx, row }) {
    const lines = await historyOf(tx, [row.id]);
    return { noAudit: true, history: lines.map(({ documentId: _d, ...line }) => line) };
  },

  archive: (ctx) => setState(ctx, 1).then((changes) => ({ changes })),
  restore: (ctx) => setState(ctx, 0).then((changes) => ({ changes })),
  delete: (ctx) => setState(ctx, 9).then((changes) => ({ changes })),

  async sign({ tx, principal, row, request }) {
    const contentHash = await documentContentHash(tx, row.id);
    await tx.insert(documentSignatures).values({
      documentId: row.id,
      userId: principal.userId,
      contentHash,
      comments: request.comments,
    });
    return { changes: { signature: { before: null, after: contentHash } } };
  },

  async convertToOutgoing({ tx, principal, row, requestId }) {
    const senders = await tx
      .select({ traderId: documentTraders.traderId })
      .from(documentTraders)
      .where(and(eq(documentTraders.documentId, row.id), eq(documentTraders.role, TRADER_ROLE.sender)))
      .orderBy(asc(documentTraders.position));
    let replyTypeId: number | null = null;
    if (row.documentTypeId !== null) {
      const [type] = await tx
        .select({ relseqid: documentTypes.relseqid })
        .from(documentTypes)
        .where(eq(documentTypes.id, row.documentTypeId));
      replyTypeId = type?.relseqid ?? null;
    }
    const draft = await createDraftFrom(
      tx,
      principal,
      row,
      {
        kind: 1,
        senders: [],
        receivers: senders.map((s) => s.traderId),
        replyToId: row.id,
        documentTypeId: replyTypeId,
        protocolIdSender: null,
        protocolSendDate: null,
      },
      requestId,
    );
    return { createdDocumentId: draft.id, changes: { reply: { before: null, after: draft.id } } };
  },

  async createCase({ tx, principal, row, request, requestId }) {
    let caseRow: typeof cases.$inferSelect;
    if (request.caseId) {
      const [found] = await tx.select().from(cases).where(eq(cases.id, request.caseId)).for('update');
      if (!found || found.companyId !== row.companyId) throw notFound();
      caseRow = found;
    } else {
      const details = request.case ?? { code: null, name: row.subject.slice(0, 500) };
      caseRow = await insertCase(
        tx,
        principal,
        row.companyId,
        {
          code: details.code ?? null,
          name: details.name,
          caseTypeId: 'caseTypeId' in details ? (details.caseTypeId ?? null) : null,
          agencies: 'agencies' in details ? (details.agencies ?? null) : null,
        },
        [],
        requestId,
      );
    }
    await linkDocuments(tx, principal, caseRow, [row.id], requestId, { audit: false });
    return {
      caseId: caseRow.id,
      changes: { case: { before: null, after: `${caseRow.code} ${caseRow.name}` } },
    };
  },

  async fileTransfer({ tx, principal, row, request, requestId }) {
    const targetId = request.targetDocumentId as number;
    const target = await visibleDocumentRow(tx, principal, row.companyId, targetId);
    if (target.state === 9) throw new AppError(409, actionErrorKeys.transferTargetDeleted);
    const move = request.move === true;
    if (move && row.protocolNumber !== null) throw new AppError(409, actionErrorKeys.filesOfRegistered);
    const live = await liveAttachments(tx, row.id);
    const chosen = request.attachmentIds ? live.filter((a) => request.attachmentIds?.includes(a.id)) : live;
    if (request.attachmentIds && chosen.length !== new Set(request.attachmentIds).size) throw notFound();
    if (chosen.length === 0) {
      throw badRequest([{ field: 'attachmentIds', key: 'validation.required', params: {} }]);
    }
    if (move) {
      await tx
        .update(documentAttachments)
        .set({ documentId: target.id, ...updatedBy(principal.username) })
        .where(
          inArray(
            documentAttachments.id,
            chosen.map((a) => a.id),
          ),
        );
    } else {
      await copyAttachments(tx, principal, chosen, target.id);
    }
    const names = chosen.map((a) => a.fileName);
    await recordAudit(tx, {
      entity: 'document',
      entityId: target.id,
      action: 'attachments_received',
      companyId: target.companyId,
      user: auditUser(principal),
      changes: { attachments: { before: null, after: names } },
      comments: `${move ? 'moved' : 'copied'} from ${label(row)}`,
      requestId,
    });
    return {
      changes: {
        [move ? 'attachmentsMoved' : 'attachmentsCopied']: { before: names, after: label(target) },
      },
    };
  },

  async clone({ tx, principal, row, requestId }) {
    const draft = await createDraftFrom(tx, principal, row, { cloneDocumentId: row.id }, requestId);
    await copyAttachments(tx, principal, await liveAttachments(tx, row.id), draft.id);
    return { createdDocumentId: draft.id, changes: { clone: { before: null, after: draft.id } } };
  },
};

/** POST /api/document/actions: runs one action on one document, in one transaction. */
export async function runDocumentAction(
  db: Db,
  principal: Principal,
  companyId: number,
  request: DocumentActionRequest,
  requestId: string,
  services: ActionServices,
): Promise<DocumentActionResult> {
  const name = documentActionName(request.actionType.id);
  if (!name) throw badRequest([{ field: 'actionType.id', key: 'validation.invalid', params: {} }]);
  if (name === 'fileTransfer') {
    if (!request.targetDocumentId) {
      throw badRequest([{ field: 'targetDocumentId', key: 'validation.required', params: {} }]);
    }
    if (request.targetDocumentId === request.document.id) {
      throw badRequest([{ field: 'targetDocumentId', key: 'validation.invalid', params: {} }]);
    }
  }
  return db.transaction(async (tx) => {
    // File transfer locks both documents, the lower id first, so two opposite transfers cannot deadlock.
    if (name === 'fileTransfer' && (request.targetDocumentId as number) < request.document.id) {
      await tx.execute(
        sql`SELECT 1 FROM ${documents} WHERE ${documents.id} = ${request.targetDocumentId} FOR UPDATE`,
      );
    }
    const row = await visibleDocumentRow(tx, principal, companyId, request.document.id, { lock: true });
    if (name === 'fileTransfer' && (request.targetDocumentId as number) > request.document.id) {
      await tx.execute(
        sql`SELECT 1 FROM ${documents} WHERE ${documents.id} = ${request.targetDocumentId} FOR UPDATE`,
      );
    }
    const facts = await documentFacts(tx, principal, row);
    assertAction(principal, name, row, facts);
    const effect = await handlers[name]({ tx, principal, row, request, requestId, services });
    if (!effect.noAudit) {
      await recordAudit(tx, {
        entity: 'document',
        entityId: row.id,
        action: name,
        companyId: row.companyId,
        user: auditUser(principal),
        changes: effect.changes ?? {},
        comments: request.comments ?? undefined,
        requestId,
      });
    }
    return {
      document: await loadDocument(tx, principal, companyId, row.id),
      createdDocumentId: effect.createdDocumentId ?? null,
      caseId: effect.caseId ?? null,
      history: effect.history ?? null,
      editable: effect.editable ?? null,
    };
  });
}

/** GET /api/document/{id}/history: the timeline of a document the asker sees, oldest first. */
export async function documentHistory(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
): Promise<HistoryEntry[]> {
  return db.transaction(async (tx) => {
    await visibleDocumentRow(tx, principal, companyId, id);
    const lines = await historyOf(tx, [id]);
    return lines.map(({ documentId: _d, ...line }) => line);
  });
}
