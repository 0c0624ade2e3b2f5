import { randomBytes } from 'node:crypto';
import {
  errorKeys,
  type FileRef,
  FORM_FILE_DEFAULTS,
  type FormElement,
  inputElements,
  type PublicForm,
  type PublicSubmitResult,
  parseStructure,
  type publicSubmitSchema,
  rfCode as rfCodeOf,
  type SubmissionValues,
  UTILITY_TIME_ZONE,
  validateSubmission,
} from '@protocol/contracts';
import { and, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { AppError, tooManyAttempts } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/jobs.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import type { Storage } from '../../platform/storage.ts';
import { companies } from '../companies/companies.schema.ts';
import { notificationInsert } from '../notifications/api.ts';
import {
  incomingFile,
  type RegistrationLink,
  registerIncomingDocument,
  storeUpload,
  type UploadPart,
} from '../protocol/api.ts';
import { addresses } from '../settings/settings-tables.schema.ts';
import { applicantVat, findTraderByVat, traderIdOfVat } from '../traders/api.ts';
import { users } from '../users/users.schema.ts';
import {
  formDrafts,
  formSubmissions,
  formSubmitAttempts,
  formUploads,
  onlineForms,
  onlineFormVersions,
  submissionHistory,
} from './forms.schema.ts';
import { SUBMISSION_JOB, type SubmissionJobPayload } from './submission.job.ts';
import { applicantOf } from './submission-print.ts';

/*
 * The citizen's side (no sign-in): a published, online, enabled form; uploads checked on their
 * content; a rate limit per address and a honeypot; drafts behind a private token; and the
 * submission itself, which with auto_nr is registered in the form's book in the SAME transaction
 * that stores it (a failure takes no number).
 */

/** Public submissions and uploads allowed per address in the window. */
export const PUBLIC_LIMIT = { perWindow: 10, windowSeconds: 600 } as const;

type FormRow = typeof onlineForms.$inferSelect;

/** A submission names its registered document: written by the registration statement itself. */
const SUBMISSION_DOCUMENT: RegistrationLink = {
  key: formSubmissions.id,
  documentId: formSubmissions.documentId,
  protocolId: formSubmissions.protocolNumber,
};
const notAccepting = () => new AppError(404, errorKeys.formNotFound);
const token = (bytes: number) => randomBytes(bytes).toString('base64url');

/** The form a citizen may use now, with its latest published version; else 404. One round trip. */
async function acceptingForm(db: Db | Tx, formId: string) {
  const [row] = await db
    .select({
      form: onlineForms,
      companyName: companies.companytitle,
      companyShort: companies.companyname,
      version: sql<{ id: number; version: number; api: string } | null>`(
        SELECT jsonb_build_object('id', v.id, 'version', v.version, 'api', v.api)
          FROM ${onlineFormVersions} v WHERE v.form_id = ${onlineForms.id}
         ORDER BY v.version DESC LIMIT 1)`,
    })
    .from(onlineForms)
    .innerJoin(companies, eq(companies.id, onlineForms.companyId))
    .where(eq(onlineForms.formId, formId.toLowerCase()));
  const accepting =
    row && row.form.status === 1 && row.form.isOnline && !row.form.disabled && row.form.version > 0;
  if (!row || !accepting) {
    throw notAccepting();
  }
  const { version } = row;
  if (!version) throw notAccepting();
  const structure = parseStructure(version.api);
  if (!structure.ok) throw notAccepting();
  return {
    form: row.form,
    companyName: row.companyName || row.companyShort || '',
    version,
    structure: structure.structure,
  };
}

/** A read-only form is shown but takes no submissions, uploads or drafts (spec §3 'readonly'). */
function assertWritable(form: FormRow): void {
  if (form.readonly) throw new AppError(409, errorKeys.formReadonly);
}

export async function publicForm(db: Db, formId: string): Promise<PublicForm> {
  const { form, version, companyName } = await acceptingForm(db, formId);
  return {
    form_id: form.formId,
    title: form.title,
    language: form.language,
    description: form.description,
    successNote: form.successNote,
    errorNote: form.errorNote,
    successUrl: form.successUrl,
    errorUrl: form.errorUrl,
    is_payment: form.isPayment,
    fee: form.fee,
    readonly: form.readonly,
    version: version.version,
    api: version.api,
    companyName,
  };
}

/** The key space of the advisory locks of the per-address limit (one lock per address, by its hash). */
const ATTEMPTS_LOCK = 72510031;

/** Takes the address's turn: held to the end of the transaction. */
const attemptsTurn = (ip: string) => sql`pg_advisory_xact_lock(${ATTEMPTS_LOCK}, hashtext(${ip}))`;

/**
 * Records an attempt of `ip` unless it has had its share in the window; RETURNING 1 when recorded.
 * Run after `attemptsTurn` in the same transaction, in a statement of its own: its snapshot then
 * sees every attempt committed before the turn was taken, so parallel requests cannot all count the
 * same earlier ones.
 */
function attemptInsert(ip: string): SQL {
  const since = sql`now() - make_interval(secs => ${PUBLIC_LIMIT.windowSeconds})`;
  return sql`INSERT INTO ${formSubmitAttempts} (ip)
    SELECT ${ip}::text WHERE (SELECT count(*) FROM ${formSubmitAttempts}
      WHERE ${and(eq(formSubmitAttempts.ip, ip), gt(formSubmitAttempts.at, since))}) < ${PUBLIC_LIMIT.perWindow}
    RETURNING 1`;
}

/**
 * Counts this attempt against the address's limit (429 with Retry-After when over it). Attempts
 * older than a day are forgotten by the submissions' job (submission.job.ts), not on this request.
 * A submission counts its own in its transaction (`submitForm`).
 */
export async function countAttempt(db: Db, ip: string): Promise<void> {
  const recorded = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT ${attemptsTurn(ip)}`);
    return rowsOf(await tx.execute(attemptInsert(ip))).length;
  });
  if (recorded === 0) throw tooManyAttempts(PUBLIC_LIMIT.windowSeconds);
}

/** Stores one uploaded file of a file field: its type and size by the field's limits, checked on the content. */
export async function uploadFile(
  db: Db,
  storage: Storage,
  formId: string,
  field: string,
  part: UploadPart,
  ip: string,
): Promise<FileRef> {
  const { form, structure } = await acceptingForm(db, formId);
  assertWritable(form);
  const element = inputElements(structure).find(
    (e) => e.element.type === 'file' && e.element.options.field === field,
  )?.element;
  if (!element)
    throw new AppError(400, errorKeys.badData, {}, [{ field, key: 'validation.invalid', params: {} }]);
  await countAttempt(db, ip);
  const maxMb = element.options.maxSizeMb ?? FORM_FILE_DEFAULTS.maxSizeMb;
  const stored = await storeUpload(
    storage,
    {
      maxMb,
      maxBytes: Math.floor(maxMb * 1024 * 1024),
      allowedTypes: [...(element.options.accept ?? FORM_FILE_DEFAULTS.accept)],
    },
    part,
  );
  const ref = token(24);
  await db.insert(formUploads).values({
    token: ref,
    formId: form.id,
    fileName: stored.fileName,
    contentType: stored.contentType,
    size: stored.size,
    sha256: stored.sha256,
    storageKey: stored.key,
  });
  return { id: ref, name: stored.fileName, size: stored.size, type: stored.contentType };
}

/** The stored uploads a submission names: this form's, not yet used; what was stored wins over the client. */
async function resolveFiles(
  db: Db | Tx,
  formRowId: number,
  structure: FormElement[],
  values: SubmissionValues,
) {
  const files = new Map<string, typeof formUploads.$inferSelect>();
  const tokens = structure
    .filter((e) => e.type === 'file' && e.options.field)
    .flatMap((e) => (values[e.options.field as string] as FileRef[] | undefined) ?? [])
    .map((f) => f.id);
  if (tokens.length === 0) return { values, files };
  const rows = await db
    .select()
    .from(formUploads)
    .where(
      and(
        inArray(formUploads.token, tokens),
        eq(formUploads.formId, formRowId),
        isNull(formUploads.submissionId),
      ),
    );
  for (const row of rows) files.set(row.token, row);
  const resolved: SubmissionValues = { ...values };
  for (const element of structure) {
    const name = element.options.field;
    if (element.type !== 'file' || !name || !Array.isArray(values[name])) continue;
    const refs = values[name] as FileRef[];
    const missing = refs.find((f) => !files.has(f.id));
    if (missing) {
      throw new AppError(400, errorKeys.badData, {}, [
        { field: name, key: 'validation.invalid', params: {} },
      ]);
    }
    resolved[name] = refs.map((f) => {
      const row = files.get(f.id) as typeof formUploads.$inferSelect;
      return { id: row.token, name: row.fileName, size: row.size, type: row.contentType };
    });
  }
  return { values: resolved, files };
}

/** Saves or replaces a citizen's draft; answers its private token. */
async function saveDraft(db: Db, form: FormRow, values: SubmissionValues, draftToken: string | undefined) {
  const key = draftToken ?? token(32);
  await db
    .insert(formDrafts)
    .values({ token: key, formId: form.id, values })
    .onConflictDoUpdate({
      target: formDrafts.token,
      set: { values, updatedAt: new Date() },
      where: eq(formDrafts.formId, form.id),
    });
  return key;
}

/** Suggestions of an API autocomplete field (source 'streets': the company's addresses), by what was typed. */
export async function lookup(db: Db, formId: string, field: string, text: string): Promise<string[]> {
  const { form, structure } = await acceptingForm(db, formId);
  const element = inputElements(structure).find(
    (e) => e.element.type === 'autocomplete' && e.element.options.field === field,
  )?.element;
  if (!element)
    throw new AppError(400, errorKeys.badData, {}, [{ field, key: 'validation.invalid', params: {} }]);
  const typed = text.trim();
  if (typed.length < 2) return [];
  const rows = await db
    .selectDistinct({ street: addresses.street })
    .from(addresses)
    .where(
      and(
        eq(addresses.companyId, form.companyId),
        sql`norm_text(${addresses.street}) LIKE '%' || norm_text(${typed}) || '%'`,
      ),
    )
    .orderBy(addresses.street)
    .limit(10);
  return rows.map((r) => r.street);
}

export async function loadDraft(db: Db, formId: string, draftToken: string): Promise<SubmissionValues> {
  const { form } = await acceptingForm(db, formId);
  const [draft] = await db
    .select({ values: formDrafts.values })
    .from(formDrafts)
    .where(and(eq(formDrafts.token, draftToken), eq(formDrafts.formId, form.id)));
  if (!draft) throw new AppError(404, errorKeys.notFound);
  return draft.values as SubmissionValues;
}

export interface SubmitContext {
  db: Db;
  jobs: JobQueue;
  secrets: SecretBox;
  ip: string;
  requestId?: string;
}

/**
 * A citizen submits (or saves a draft of) a form. Checked with the same rules as the client; the
 * submission, its history line, the notification, its job and (auto_nr) the registered document are
 * one transaction. The job attaches the PDF and files and sends the e-mails after the commit.
 */
export async function submitForm(
  ctx: SubmitContext,
  formId: string,
  body: z.output<typeof publicSubmitSchema>,
): Promise<PublicSubmitResult> {
  const { db } = ctx;
  const { form, version, structure } = await acceptingForm(db, formId);
  assertWritable(form);
  // The honeypot: a field people never see; a bot that fills it is refused.
  if (body.website) throw new AppError(400, errorKeys.submissionRejected);
  const elements = inputElements(structure).map((e) => e.element);
  if (body.draft) {
    await countAttempt(db, ctx.ip);
    const draftToken = await saveDraft(db, form, body.values, body.draftToken);
    return {
      reference: null,
      draftToken,
      protocolNumber: null,
      fee: null,
      rfCode: null,
      successNote: null,
      successUrl: null,
      receipt: null,
    };
  }
  // A refused submission counts too, and over the limit the answer is 429 rather than its error, as
  // when every attempt was counted first; an accepted one counts in its own transaction below.
  let overLimit = false;
  const counted = async (error: unknown) => {
    if (!overLimit) await countAttempt(db, ctx.ip);
    return error;
  };
  let checked: ReturnType<typeof validateSubmission>;
  let files: Awaited<ReturnType<typeof resolveFiles>>['files'];
  try {
    const resolved = await resolveFiles(db, form.id, elements, body.values);
    files = resolved.files;
    checked = validateSubmission(structure, resolved.values);
    if (checked.errors.length > 0) throw new AppError(400, errorKeys.badData, {}, checked.errors);
  } catch (error) {
    throw await counted(error);
  }
  const values = checked.values;
  const keptFiles = [...files.values()].filter((f) =>
    Object.values(values).some(
      (v) => Array.isArray(v) && v.some((x) => typeof x === 'object' && x.id === f.token),
    ),
  );
  const applicant = applicantOf(structure, values);
  // Linked to the company's trader with the ΑΦΜ typed, if there is one; a new citizen becomes a trader
  // only once staff accept the submission (submissions.service.ts), so spam adds no traders.
  const vat = applicantVat(applicant);
  const submittedAt = new Date();
  const year = Number(
    new Intl.DateTimeFormat('en', { timeZone: UTILITY_TIME_ZONE, year: 'numeric' }).format(submittedAt),
  );
  const ownerId = form.autoNr ? (form.createUserId ?? form.assignTo) : null;

  // The book's counter row, locked from the number to the commit, is what every registration in the
  // book waits for: so everything else is written first and the registration, which also writes the
  // document on the submission (SUBMISSION_DOCUMENT), is the last statement before COMMIT. The PDF,
  // the files on the document and the e-mails are the job's, after the commit (submission.job.ts).
  // Round trips are the request's cost on both sides: the address's turn, the submission's id and
  // the form's owner are one statement, the attempt, the submission, its history line and the
  // notification another.
  const answer = await db
    .transaction(async (tx) => {
      const [first] = rowsOf<{ nextId: number; owner: { userId: number; username: string } | null }>(
        await tx.execute(sql`SELECT ${attemptsTurn(ctx.ip)},
        nextval(pg_get_serial_sequence('form_submissions', 'id'))::int AS "nextId",
        (SELECT jsonb_build_object('userId', ${users.id}, 'username', ${users.username})
           FROM ${users} WHERE ${users.id} = ${ownerId}::int) AS "owner"`),
      );
      const nextId = Number(first?.nextId);
      const owner = first?.owner ?? null;
      const reference = `F${year}-${String(nextId).padStart(6, '0')}`;
      const rfCode = form.isPayment ? rfCodeOf(`${form.companyId}${String(nextId).padStart(9, '0')}`) : null;
      if (form.autoNr && (form.bookId === null || !owner)) throw new AppError(409, errorKeys.formNotFound);
      const traderId = form.autoNr && vat ? await findTraderByVat(tx, form.companyId, vat) : null;
      const submission = tx.insert(formSubmissions).values({
        id: nextId,
        companyId: form.companyId,
        formId: form.id,
        versionId: version.id,
        reference,
        values,
        status: 0,
        assignedTo: form.assignTo,
        traderId: form.autoNr || !vat ? traderId : traderIdOfVat(form.companyId, vat),
        applicant: applicant.fullname ?? applicant.email ?? null,
        fee: form.isPayment ? form.fee : null,
        rfCode,
        submittedAt,
        createuser: 'online',
      });
      const history = tx.insert(submissionHistory).values({
        submissionId: nextId,
        fromStatus: null,
        toStatus: 0,
        assignedTo: form.assignTo,
        comments: null,
      });
      const notification =
        form.assignTo === null
          ? undefined
          : notificationInsert(tx, {
              companyId: form.companyId,
              userIds: [form.assignTo],
              senderId: null,
              messageKey: 'onlineForms.notification.submission_received',
              params: { reference, form: form.title },
              entity: 'submission',
              entityId: nextId,
            });
      // Over the limit, the rows written beside the refused attempt go with the rollback. (Drizzle
      // puts a query it embeds in parentheses.)
      const [recorded] = rowsOf<{ recorded: number }>(
        await tx.execute(sql`WITH attempt AS (${attemptInsert(ctx.ip)}),
        submission AS ${submission}, history AS ${history}
        ${notification ? sql`, notified AS ${notification}` : sql``}
        SELECT count(*)::int AS recorded FROM attempt`),
      );
      if (!recorded?.recorded) {
        overLimit = true;
        throw tooManyAttempts(PUBLIC_LIMIT.windowSeconds);
      }
      if (keptFiles.length > 0) {
        await tx
          .update(formUploads)
          .set({ submissionId: nextId })
          .where(
            inArray(
              formUploads.token,
              keptFiles.map((f) => f.token),
            ),
          );
      }
      if (body.draftToken) await tx.delete(formDrafts).where(eq(formDrafts.token, body.draftToken));
      await ctx.jobs.enqueue(tx, {
        kind: SUBMISSION_JOB,
        key: `${SUBMISSION_JOB}:${nextId}`,
        companyId: form.companyId,
        owner: null,
        payload: { submissionId: nextId } satisfies SubmissionJobPayload,
      });
      if (!form.autoNr || form.bookId === null || !owner) {
        return { nextId, reference, rfCode, protocolNumber: null };
      }
      const registered = await registerIncomingDocument(tx, {
        companyId: form.companyId,
        bookId: form.bookId,
        actor: owner,
        subject: `${form.title} (${reference})`,
        name: applicant.fullname ?? null,
        senderTraderIds: traderId === null ? [] : [traderId],
        chargedUserId: form.assignTo,
        requestId: ctx.requestId,
        link: { to: SUBMISSION_DOCUMENT, id: nextId },
      });
      return { nextId, reference, rfCode, protocolNumber: registered.protocolId };
    })
    .catch(async (error: unknown) => {
      throw await counted(error);
    });
  const { nextId, reference, rfCode, protocolNumber } = answer;

  return {
    reference,
    draftToken: null,
    protocolNumber,
    fee: form.isPayment ? form.fee : null,
    rfCode,
    successNote: form.successNote,
    successUrl: form.successUrl,
    // Sealed (authenticated encryption): the reference alone, which a citizen may read out, opens nothing.
    receipt: protocolNumber === null ? null : ctx.secrets.seal(`receipt:${nextId}`),
  };
}

/**
 * A submission's receipt PDF by its private token (`receipt` of the answer): null while the job has
 * not attached it yet; 404 for a token that is not this form's.
 */
export async function receiptOf(
  db: Db,
  secrets: SecretBox,
  formId: string,
  receipt: string,
): Promise<{ fileName: string; storageKey: string; contentType: string; size: number } | null> {
  let opened: string;
  try {
    opened = secrets.open(receipt);
  } catch {
    throw new AppError(404, errorKeys.notFound);
  }
  const id = Number(/^receipt:(\d+)$/.exec(opened)?.[1]);
  const [row] = await db
    .select({ reference: formSubmissions.reference, documentId: formSubmissions.documentId })
    .from(formSubmissions)
    .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
    .where(and(eq(formSubmissions.id, id), eq(onlineForms.formId, formId.toLowerCase())));
  if (!row || row.documentId === null) throw new AppError(404, errorKeys.notFound);
  const fileName = `${row.reference}.pdf`;
  const file = await incomingFile(db, row.documentId, fileName);
  return file && { fileName, ...file };
}
