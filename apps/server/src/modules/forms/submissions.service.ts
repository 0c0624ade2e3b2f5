import {
  canMoveSubmission,
  errorKeys,
  parseStructure,
  type SaveSubmission,
  type Submission,
  type SubmissionStatus,
  type SubmissionValues,
  type saveSubmissionSchema,
  submissionTransitions,
  validateSubmission,
} from '@protocol/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { companyUsers } from '../companies/companies.schema.ts';
import { notify } from '../notifications/api.ts';
import { addIncomingSender } from '../protocol/api.ts';
import { cases } from '../protocol/protocol.schema.ts';
import { findOrCreateApplicant } from '../traders/api.ts';
import { userGroupMembers, userGroups } from '../users/groups.schema.ts';
import { users } from '../users/users.schema.ts';
import { formSubmissions, onlineForms, onlineFormVersions, submissionHistory } from './forms.schema.ts';
import { applicantOf } from './submission-print.ts';

/*
 * The review desk (GET /api/onlineForms/submissions/{id}, PUT /api/onlineForms/submissions): a
 * submission is saved back whole; values are checked against the version it was made with, status
 * changes follow submissionTransitions (contracts) and each change, assignment or comment is a
 * history line. The new assignee is notified.
 */

const fieldError = (
  status: number,
  key: string,
  field: string,
  params: Record<string, string | number> = {},
) => new AppError(status, key, params, [{ field, key, params }]);

/**
 * The statuses by which staff accept a submission as genuine: confirmed, in progress, resolved. The
 * first of them makes its citizen a trader of the company (matched by ΑΦΜ, then e-mail, else new),
 * and the sender of its registered document; open, closed-from-open and duplicate ones (spam among
 * them) add nobody to the traders.
 */
const ACCEPTED_STATUSES: ReadonlySet<number> = new Set([1, 2, 3]);

/** Message key of the assignee's notification (a catalog text listed in notificationKinds). */
export const SUBMISSION_ASSIGNED = 'onlineForms.notification.submission_assigned';

async function submissionRow(db: Db | Tx, companyId: number, id: number, lock = false) {
  const query = db
    .select({
      submission: formSubmissions,
      formTitle: onlineForms.title,
      printurl: onlineForms.printurl,
      version: onlineFormVersions.version,
      api: onlineFormVersions.api,
    })
    .from(formSubmissions)
    .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
    .innerJoin(onlineFormVersions, eq(onlineFormVersions.id, formSubmissions.versionId))
    .where(and(eq(formSubmissions.id, id), eq(formSubmissions.companyId, companyId)));
  const [row] = await (lock ? query.for('update', { of: formSubmissions }) : query);
  if (!row) throw notFound();
  return row;
}

export async function loadSubmission(db: Db | Tx, companyId: number, id: number): Promise<Submission> {
  const row = await submissionRow(db, companyId, id);
  const history = await db
    .select({
      id: submissionHistory.id,
      fromStatus: submissionHistory.fromStatus,
      toStatus: submissionHistory.toStatus,
      assignedTo: submissionHistory.assignedTo,
      assignedGroupId: submissionHistory.assignedGroupId,
      comments: submissionHistory.comments,
      userId: submissionHistory.userId,
      username: submissionHistory.username,
      lastname: users.lastname,
      firstname: users.firstname,
      at: submissionHistory.at,
    })
    .from(submissionHistory)
    .leftJoin(users, eq(users.id, submissionHistory.userId))
    .where(eq(submissionHistory.submissionId, id))
    .orderBy(asc(submissionHistory.id));
  const s = row.submission;
  return {
    id: s.id,
    formId: s.formId,
    formTitle: row.formTitle,
    formVersion: row.version,
    api: row.api,
    reference: s.reference,
    values: s.values as SubmissionValues,
    status: s.status,
    allowedStatuses: [...(submissionTransitions[s.status as SubmissionStatus] ?? [])],
    assignedTo: s.assignedTo,
    assignedGroupId: s.assignedGroupId,
    duplicateOf: s.duplicateOf,
    documentId: s.documentId,
    protocolNumber: s.protocolNumber,
    caseId: s.caseId,
    traderId: s.traderId,
    rfCode: s.rfCode,
    fee: s.fee,
    submittedAt: s.submittedAt.toISOString(),
    printurl: row.printurl,
    history: history.map((h) => ({
      id: h.id,
      fromStatus: h.fromStatus,
      toStatus: h.toStatus,
      assignedTo: h.assignedTo,
      assignedGroupId: h.assignedGroupId,
      comments: h.comments,
      userId: h.userId,
      userName: [h.lastname, h.firstname].filter(Boolean).join(' ') || h.username,
      createdAt: h.at.toISOString(),
    })),
  };
}

/** Who a submission may be assigned to: the company's active operators, by name. */
export async function assignees(db: Db, companyId: number): Promise<{ id: number; name: string }[]> {
  const rows = await db
    .select({ id: users.id, lastname: users.lastname, firstname: users.firstname, username: users.username })
    .from(users)
    .innerJoin(companyUsers, eq(companyUsers.userId, users.id))
    .where(and(eq(companyUsers.companyId, companyId), eq(users.active, true)))
    .orderBy(asc(users.lastname), asc(users.firstname));
  return rows.map((u) => ({
    id: u.id,
    name: [u.lastname, u.firstname].filter(Boolean).join(' ') || u.username,
  }));
}

/** The members of a group of the company (400 naming the field when it is not the company's). */
async function membersOf(tx: Tx, companyId: number, groupId: number): Promise<number[]> {
  const [group] = await tx
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(and(eq(userGroups.id, groupId), eq(userGroups.companyId, companyId)));
  if (!group) throw fieldError(400, 'validation.invalid', 'assignedGroupId');
  const rows = await tx
    .select({ userId: userGroupMembers.userId })
    .from(userGroupMembers)
    .where(eq(userGroupMembers.groupId, groupId));
  return rows.map((r) => r.userId);
}

/** The company's groups (departments) a submission may be assigned to. */
export async function assigneeGroups(db: Db, companyId: number): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: userGroups.id, name: userGroups.name })
    .from(userGroups)
    .where(eq(userGroups.companyId, companyId))
    .orderBy(asc(userGroups.name));
}

async function assertMember(tx: Tx, companyId: number, userId: number, field: string) {
  const [member] = await tx
    .select({ userId: companyUsers.userId })
    .from(companyUsers)
    .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, userId)));
  if (!member) throw fieldError(400, 'validation.invalid', field);
}

/** Saves a submission from the desk; answers its id (spec §7). */
export async function saveSubmission(
  db: Db,
  principal: Principal,
  companyId: number,
  input: z.output<typeof saveSubmissionSchema>,
  requestId?: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { submission: before, api } = await submissionRow(tx, companyId, input.id, true);
    const structure = parseStructure(api);
    if (!structure.ok) throw new AppError(500, errorKeys.server);
    const checked = validateSubmission(structure.structure, input.values);
    if (checked.errors.length > 0) {
      throw new AppError(400, errorKeys.badData, {}, checked.errors);
    }
    const statusChanged = input.status !== before.status;
    if (statusChanged && !canMoveSubmission(before.status, input.status)) {
      const t = (s: number) => `onlineForms.submissionStatus.${s}`;
      throw fieldError(409, errorKeys.statusNotAllowed, 'status', {
        from: t(before.status),
        to: t(input.status),
      });
    }
    if (input.duplicateOf !== null && input.duplicateOf !== before.duplicateOf) {
      const [original] = await tx
        .select({ id: formSubmissions.id })
        .from(formSubmissions)
        .where(and(eq(formSubmissions.id, input.duplicateOf), eq(formSubmissions.companyId, companyId)));
      if (!original) throw fieldError(400, 'validation.invalid', 'duplicateOf');
    }
    if (input.caseId !== null && input.caseId !== before.caseId) {
      const [found] = await tx
        .select({ id: cases.id })
        .from(cases)
        .where(and(eq(cases.id, input.caseId), eq(cases.companyId, companyId)));
      if (!found) throw fieldError(400, 'validation.invalid', 'caseId');
    }
    const assignmentChanged = input.assignedTo !== before.assignedTo;
    if (assignmentChanged && input.assignedTo !== null) {
      await assertMember(tx, companyId, input.assignedTo, 'assignedTo');
    }
    const groupChanged = input.assignedGroupId !== before.assignedGroupId;
    const groupMembers =
      groupChanged && input.assignedGroupId !== null
        ? await membersOf(tx, companyId, input.assignedGroupId)
        : [];
    const acceptedNow = before.traderId === null && ACCEPTED_STATUSES.has(input.status);
    const traderId = acceptedNow
      ? (
          await findOrCreateApplicant(
            tx,
            companyId,
            applicantOf(structure.structure, checked.values),
            principal.username,
          )
        ).id
      : before.traderId;
    if (acceptedNow && traderId !== null && before.documentId !== null) {
      await addIncomingSender(tx, {
        companyId,
        documentId: before.documentId,
        traderId,
        actor: { userId: principal.userId, username: principal.username },
        requestId,
      });
    }
    await tx
      .update(formSubmissions)
      .set({
        traderId,
        values: checked.values,
        status: input.status,
        assignedTo: input.assignedTo,
        assignedGroupId: input.assignedGroupId,
        duplicateOf: input.status === 6 ? input.duplicateOf : null,
        caseId: input.caseId,
        ...updatedBy(principal.username),
      })
      .where(eq(formSubmissions.id, before.id));
    if (statusChanged || assignmentChanged || groupChanged || input.comments) {
      await tx.insert(submissionHistory).values({
        submissionId: before.id,
        fromStatus: before.status,
        toStatus: input.status,
        assignedTo: assignmentChanged ? input.assignedTo : null,
        assignedGroupId: groupChanged ? input.assignedGroupId : null,
        comments: input.comments,
        userId: principal.userId,
        username: principal.username,
      });
    }
    const told = [
      ...(assignmentChanged && input.assignedTo !== null ? [input.assignedTo] : []),
      ...groupMembers,
    ];
    if (told.length > 0) {
      await notify(tx, {
        companyId,
        userIds: told,
        senderId: principal.userId,
        messageKey: SUBMISSION_ASSIGNED,
        params: { reference: before.reference },
        entity: 'submission',
        entityId: before.id,
        comments: input.comments,
      });
    }
    await recordAudit(tx, {
      entity: 'form_submission',
      entityId: before.id,
      action: 'updated',
      companyId,
      user: { userId: principal.userId, username: principal.username },
      changes: statusChanged ? { status: { before: before.status, after: input.status } } : undefined,
      comments: input.comments ?? undefined,
      requestId,
    });
    return before.id;
  });
}

export type { SaveSubmission };
