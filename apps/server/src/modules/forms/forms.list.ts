import {
  type OnlineFormListItem,
  onlineFormsCatalog,
  type SubmissionListItem,
  submissionsCatalog,
} from '@protocol/contracts';
import { count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { formSubmissions, onlineForms } from './forms.schema.ts';

export const formsOfCompany = (companyId: number): SQL => eq(onlineForms.companyId, companyId);
export const submissionsOfCompany = (companyId: number): SQL => eq(formSubmissions.companyId, companyId);

/** The builder's list (GET /api/onlineForms/search), with each form's number of submissions. */
export function formsList(db: Db) {
  const columns = {
    id: onlineForms.id,
    form_id: onlineForms.formId,
    title: onlineForms.title,
    status: onlineForms.status,
    is_online: onlineForms.isOnline,
    auto_nr: onlineForms.autoNr,
    disabled: onlineForms.disabled,
    version: onlineForms.version,
    submissions: sql<number>`(SELECT count(*)::int FROM form_submissions s WHERE s.form_id = ${onlineForms.id})`,
  };
  return defineList<OnlineFormListItem>({
    catalog: onlineFormsCatalog,
    columns: {
      ...columns,
      form_id: { value: onlineForms.formId, normalized: onlineForms.formIdNorm },
      title: { value: onlineForms.title, normalized: onlineForms.titleNorm },
    },
    id: onlineForms.id,
    fetch: (where, orderBy, limit, offset) =>
      db
        .select(columns)
        .from(onlineForms)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    async count(where) {
      const [row] = await db.select({ n: count() }).from(onlineForms).where(where);
      return row?.n ?? 0;
    },
  });
}

/** The review desk's list (GET /api/onlineForms/submissions/search), across forms or per form (formId=eq(…)). */
export function submissionsList(db: Db) {
  const columns = {
    id: formSubmissions.id,
    reference: formSubmissions.reference,
    formId: formSubmissions.formId,
    formTitle: onlineForms.title,
    applicant: formSubmissions.applicant,
    status: formSubmissions.status,
    protocolNumber: formSubmissions.protocolNumber,
    assignedTo: formSubmissions.assignedTo,
    submittedAt: formSubmissions.submittedAt,
  };
  return defineList<SubmissionListItem>({
    catalog: submissionsCatalog,
    columns: {
      ...columns,
      formTitle: { value: onlineForms.title, normalized: onlineForms.titleNorm },
      applicant: { value: formSubmissions.applicant, normalized: formSubmissions.applicantNorm },
    },
    id: formSubmissions.id,
    async fetch(where, orderBy, limit, offset) {
      const rows = await db
        .select(columns)
        .from(formSubmissions)
        .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
      return rows.map((row) => ({ ...row, submittedAt: row.submittedAt.toISOString() }));
    },
    async count(where) {
      const [row] = await db
        .select({ n: count() })
        .from(formSubmissions)
        .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
        .where(where);
      return row?.n ?? 0;
    },
  });
}
