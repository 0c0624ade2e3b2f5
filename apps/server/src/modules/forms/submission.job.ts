import { parseStructure } from '@protocol/contracts';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { JobContext } from '../../platform/jobs/jobs.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { Storage } from '../../platform/storage.ts';
import { companies } from '../companies/companies.schema.ts';
import { attachIncomingFiles } from '../protocol/api.ts';
import { users } from '../users/users.schema.ts';
import {
  formSubmissions,
  formSubmitAttempts,
  formUploads,
  onlineForms,
  onlineFormVersions,
} from './forms.schema.ts';
import {
  applicantOf,
  mailSubmission,
  renderSubmissionPdf,
  type SubmissionPrint,
} from './submission-print.ts';

/*
 * What a public submission needs after its commit: the citizen's answer waits only for
 * the reference and the protocol number; the submission's PDF, its files on the registered document
 * and the e-mails come from this job, queued in the submission's transaction.
 */

export const SUBMISSION_JOB = 'forms.submission';
type UploadRow = { fileName: string; contentType: string; size: number; sha256: string; storageKey: string };
export type SubmissionJobPayload = { submissionId: number };

/** The storage, mailer and log of the app that owns `db`: job handlers get only the database. */
type Services = { storage: Storage; mailer: Mailer; log: FastifyBaseLogger };
const services = new WeakMap<Db, Services>();
export const rememberSubmissionServices = (db: Db, found: Services) => services.set(db, found);

/**
 * Safe to run again (a worker that died, or a second run): the files are attached under the
 * document's lock and skipped by name when it has them (`attachIncomingFiles`), so the document gets
 * its PDF and files once. The e-mails go last, after the files' commit; a run that ends after them
 * but before the job is marked done mails again on its rerun (at least once, never lost).
 */
export async function submissionJob({ payload, db, job }: JobContext<SubmissionJobPayload>) {
  const found = services.get(db);
  if (!found) throw new Error('forms: no storage or mailer for this database');
  const { storage } = found;
  const [row] = await db
    .select({
      submission: formSubmissions,
      form: onlineForms,
      api: onlineFormVersions.api,
      companyName: companies.companytitle,
      companyShort: companies.companyname,
      // The form's owner and the submission's uploads in the same round trip.
      actor: sql<{ userId: number; username: string } | null>`(
        SELECT jsonb_build_object('userId', ${users.id}, 'username', ${users.username}) FROM ${users}
         WHERE ${users.id} = coalesce(${onlineForms.createUserId}, ${onlineForms.assignTo}))`,
      uploads: sql<UploadRow[]>`(
        SELECT coalesce(jsonb_agg(jsonb_build_object('fileName', u.file_name, 'contentType', u.content_type,
          'size', u.size, 'sha256', u.sha256, 'storageKey', u.storage_key) ORDER BY u.id), '[]')
          FROM ${formUploads} u WHERE u.submission_id = ${formSubmissions.id})`,
    })
    .from(formSubmissions)
    .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
    .innerJoin(onlineFormVersions, eq(onlineFormVersions.id, formSubmissions.versionId))
    .innerJoin(companies, eq(companies.id, formSubmissions.companyId))
    .where(eq(formSubmissions.id, payload.submissionId));
  // Deleted since (its company removed): nothing is left to do.
  if (!row) return { attached: 0 };
  const { submission, form } = row;
  const parsed = parseStructure(row.api);
  if (!parsed.ok) throw new Error(`forms: submission ${submission.id} has a version that does not parse`);
  const values = submission.values as SubmissionPrint['values'];
  const print: SubmissionPrint = {
    companyName: row.companyName || row.companyShort || '',
    formTitle: form.title,
    reference: submission.reference,
    submittedAt: submission.submittedAt,
    protocolNumber: submission.protocolNumber,
    fee: submission.fee,
    rfCode: submission.rfCode,
    structure: parsed.structure,
    values,
  };
  const language = form.language === 1 ? 'en' : 'el';
  let attached = 0;
  const actorId = form.createUserId ?? form.assignTo;
  if (submission.documentId !== null && actorId !== null) {
    const documentId = submission.documentId;
    const { actor, uploads } = row;
    if (!actor) throw new Error(`forms: the owner of form ${form.id} is gone`);
    const pdf = await storage.put(renderSubmissionPdf(print, language));
    let kept: string[] = [];
    try {
      kept = await db.transaction((tx) =>
        attachIncomingFiles(tx, {
          companyId: submission.companyId,
          documentId,
          actor,
          files: [
            {
              fileName: `${submission.reference}.pdf`,
              contentType: 'application/pdf',
              size: pdf.size,
              sha256: pdf.sha256,
              storageKey: pdf.key,
            },
            ...uploads,
          ],
          requestId: `job-${job.id}`,
        }),
      );
    } finally {
      // A PDF drawn again on a rerun, when the document has its first: no row names it.
      if (!kept.includes(pdf.key)) await storage.delete(pdf.key);
    }
    attached = kept.length;
  }
  // The public rate limit's attempts older than a day, forgotten here rather than on the citizen's request.
  await db.delete(formSubmitAttempts).where(sql`${formSubmitAttempts.at} < now() - interval '1 day'`);
  await mailSubmission(found, form, print, applicantOf(parsed.structure, values).email ?? null, language);
  return { attached };
}
