import {
  type OnlineFormListItem,
  onlineFormsCatalog,
  type SubmissionListItem,
  submissionsCatalog,
} from '@protocol/contracts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
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
    ...listSource(db, () => db.select(columns).from(onlineForms).$dynamic()),
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
    ...listSource(
      db,
      () =>
        db
          .select(columns)
          .from(formSubmissions)
          .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
          .$dynamic(),
      (row) => ({ ...row, submittedAt: row.submittedAt.toISOString() }),
    ),
  });
}
