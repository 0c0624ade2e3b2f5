import { randomBytes } from 'node:crypto';
import { BOOK_TYPE_OF_KIND, UTILITY_TIME_ZONE } from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { jobs } from '../../platform/jobs/jobs.schema.ts';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { startMailServer, type TestMailServer } from '../../test/mail-server.ts';
import { storageState } from '../../test/tables.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { protocolCounters } from '../protocol/protocol.schema.ts';
import { users } from '../users/users.schema.ts';
import { formsModule } from './index.ts';
import { SUBMISSION_JOB } from './submission.job.ts';

/** The online forms tests' app, sample form and helpers, shared by the test files. */

export let t: TestApp;
export let mail: TestMailServer;
export let admin: { authorization: string };
export let companyA: number;
export let inBook: number;
export let operatorId: number;
let worker: JobWorker;

export type Json = Record<string, unknown>;

/** The protocol year now, in Athens. */
export const protocolYearOf = (at: Date) =>
  Number(new Intl.DateTimeFormat('en', { timeZone: UTILITY_TIME_ZONE, year: 'numeric' }).format(at));

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** Starts the app (with a mail server) for the test file, signed in as the admin. */
export function useFormsApp(): void {
  beforeAll(async () => {
    mail = await startMailServer();
    t = await startTestApp({ SMTP_URL: mail.url, MAIL_FROM: 'ΔΕΥΑ Δοκιμής <protocol@deya.test>' });
    admin = await t.login('admin', ADMIN_PASSWORD);
    // An app under inject runs no worker: the submissions' jobs run on this one.
    worker = startJobWorker(t.database.db, jobRegistryOf([formsModule]), { pollMs: 50, leaseMs: 5000 });
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
    ).json();
    companyA = me.companies[0].id;
    const year = protocolYearOf(new Date());
    const [book] = await t.database.db
      .select({ id: protocolBooks.id })
      .from(protocolBooks)
      .where(
        and(
          eq(protocolBooks.companyId, companyA),
          eq(protocolBooks.booktype, BOOK_TYPE_OF_KIND[0]),
          eq(protocolBooks.year, year),
        ),
      );
    inBook =
      book?.id ??
      (
        await t.database.db
          .insert(protocolBooks)
          .values({ companyId: companyA, booktype: 1, year, descr: `Εισερχόμενα ${year}` })
          .returning()
      )[0]?.id ??
      0;
    const [operator] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, 'mpapadopoulou'));
    operatorId = operator?.id ?? 0;
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await mail?.close();
  });
}

// Each test's citizen comes from another address, so the per-address limit is tested on its own.
let addressCount = 0;
export const nextAddress = () => `10.0.${Math.floor(++addressCount / 250)}.${addressCount % 250}`;

export const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
export const put = (url: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: admin, payload: payload as Json });
export const submit = (formId: string, payload: Json, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: `/api/public/forms/${formId}/submissions`, payload, remoteAddress });

export const input = (type: string, field: string, validation = '', extra: Json = {}) => ({
  type,
  options: { field, label: field },
  items: [],
  validation,
  conditionals: [],
  ...extra,
});

/** The e2e form: two rows (grid 2), a required e-mail, a file, a field shown by a checkbox. */
export const structure = [
  {
    type: 'inputLayout',
    name: 'Αιτών',
    showTitle: true,
    theme: 'Plain',
    grid: 2,
    conditionals: [],
    elements1: [input('text', 'fullname', 'required|max:100'), input('email', 'email', 'required')],
    elements2: [
      input('checkbox', 'isCompany'),
      input('afm', 'vatnumber', 'required', {
        conditionals: [{ field: 'isCompany', operator: 'equals', value: 'true' }],
      }),
    ],
  },
  {
    type: 'inputLayout',
    name: 'Αίτημα',
    showTitle: true,
    theme: 'Plain',
    grid: 2,
    conditionals: [],
    elements1: [input('textarea', 'request', 'required|max:2000')],
    elements2: [
      input('file', 'attachment', '', {
        options: { field: 'attachment', label: 'Συνημμένο', maxSizeMb: 1, accept: ['pdf'] },
      }),
    ],
  },
];

export const formBody = (extra: Json = {}) => ({
  id: null,
  form_id: `test-${randomBytes(4).toString('hex')}`,
  title: 'Αίτηση δοκιμής',
  status: 1,
  is_online: true,
  api: JSON.stringify(structure),
  ...extra,
});

export async function createForm(extra: Json = {}): Promise<{ id: number; formId: string }> {
  const body = formBody(extra);
  const response = await put(`/api/onlineForms?companyid=${companyA}`, body);
  expect(response.statusCode, response.body).toBe(200);
  return { id: response.json() as number, formId: body.form_id as string };
}

export const goodValues = {
  fullname: 'Ελένη Παπαδάκη',
  email: 'eleni@example.gr',
  request: 'Νέα σύνδεση στην οδό Αθηνάς 5',
};

export const counterOf = async (bookId: number) => {
  const [row] = await t.database.db
    .select({ last: protocolCounters.last })
    .from(protocolCounters)
    .where(and(eq(protocolCounters.bookId, bookId), eq(protocolCounters.year, protocolYearOf(new Date()))));
  return row?.last ?? 0;
};

/** The submission's job once it has ended (the PDF, files and e-mails are its work). */
export async function jobOfSubmission(submissionId: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `${SUBMISSION_JOB}:${submissionId}`));
    if (job && ['succeeded', 'failed'].includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`the job of submission ${submissionId} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The storage folder's objects (path → SHA-256). */
export const storedObjects = () => storageState(t.config.storageDir);
