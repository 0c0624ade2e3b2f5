import { randomBytes } from 'node:crypto';
import { BOOK_TYPE_OF_KIND, type FormStructure, isValidRfCode, UTILITY_TIME_ZONE } from '@protocol/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../test/files.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { startMailServer, type TestMailServer } from '../../test/mail-server.ts';
import { createCompany } from '../companies/api.ts';
import { notifications } from '../notifications/notifications.schema.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { cases, documentAttachments, documents, protocolCounters } from '../protocol/protocol.schema.ts';
import { addresses } from '../settings/settings-tables.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { userGroupMembers, userGroups } from '../users/groups.schema.ts';
import { users } from '../users/users.schema.ts';
import { formSubmissions, submissionHistory } from './forms.schema.ts';
import { PUBLIC_LIMIT } from './public.service.ts';

let t: TestApp;
let mail: TestMailServer;
let admin: { authorization: string };
let companyA: number;
let inBook: number;
let operatorId: number;

type Json = Record<string, unknown>;

/** The protocol year now, in Athens. */
const protocolYearOf = (at: Date) =>
  Number(new Intl.DateTimeFormat('en', { timeZone: UTILITY_TIME_ZONE, year: 'numeric' }).format(at));

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

beforeAll(async () => {
  mail = await startMailServer();
  t = await startTestApp({ SMTP_URL: mail.url, MAIL_FROM: 'ΔΕΥΑ Δοκιμής <protocol@deya.test>' });
  admin = await t.login('admin', ADMIN_PASSWORD);
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
  await t?.close();
  await mail?.close();
});

// Each test's citizen comes from another address, so the per-address limit is tested on its own.
let addressCount = 0;
const nextAddress = () => `10.0.${Math.floor(++addressCount / 250)}.${addressCount % 250}`;

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
const put = (url: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: admin, payload: payload as Json });
const submit = (formId: string, payload: Json, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: `/api/public/forms/${formId}/submissions`, payload, remoteAddress });

const input = (type: string, field: string, validation = '', extra: Json = {}) => ({
  type,
  options: { field, label: field },
  items: [],
  validation,
  conditionals: [],
  ...extra,
});

/** The e2e form: two rows (grid 2), a required e-mail, a file, a field shown by a checkbox. */
const structure = [
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

const formBody = (extra: Json = {}) => ({
  id: null,
  form_id: `test-${randomBytes(4).toString('hex')}`,
  title: 'Αίτηση δοκιμής',
  status: 1,
  is_online: true,
  api: JSON.stringify(structure),
  ...extra,
});

async function createForm(extra: Json = {}): Promise<{ id: number; formId: string }> {
  const body = formBody(extra);
  const response = await put(`/api/onlineForms?companyid=${companyA}`, body);
  expect(response.statusCode, response.body).toBe(200);
  return { id: response.json() as number, formId: body.form_id as string };
}

const goodValues = {
  fullname: 'Ελένη Παπαδάκη',
  email: 'eleni@example.gr',
  request: 'Νέα σύνδεση στην οδό Αθηνάς 5',
};

const counterOf = async (bookId: number) => {
  const [row] = await t.database.db
    .select({ last: protocolCounters.last })
    .from(protocolCounters)
    .where(and(eq(protocolCounters.bookId, bookId), eq(protocolCounters.year, protocolYearOf(new Date()))));
  return row?.last ?? 0;
};

describe('the builder API', () => {
  it('answers a createDraft with a generated form_id, creates, reloads and lists a form', async () => {
    const draft = await get(`/api/onlineForms/createDraft?companyid=${companyA}`);
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ id: null, api: '[]', version: 0 });
    expect(draft.json().form_id).toMatch(/^f-[0-9a-f]{12}$/);

    const { id, formId } = await createForm({ status: 0, parentForm: null });
    const loaded = (await get(`/api/onlineForms/${id}?companyid=${companyA}`)).json();
    expect(loaded).toMatchObject({ id, form_id: formId, title: 'Αίτηση δοκιμής', status: 0, version: 0 });
    expect(JSON.parse(loaded.api)).toEqual(structure);

    const list = await get(
      `/api/onlineForms/search?companyid=${companyA}&itemsPerPage=99999&search=ΑΙΤΗΣΗ%20ΔΟΚΙΜΗΣ`,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content.map((r: Json) => r.id)).toContain(id);
    const demo = await get(`/api/onlineForms/search?companyid=${companyA}&search=διαρροης`);
    expect(demo.json().content.map((r: Json) => r.title)).toEqual(['Δήλωση βλάβης / διαρροής']);

    const exportLists = await get(`/api/export/getForEntity?entityName=FRM&aa_deya=${companyA}`);
    expect(exportLists.statusCode, exportLists.body).toBe(200);
  });

  it('refuses a field name used twice (dynamicForms.item_already_exists), a taken form_id and a foreign book', async () => {
    const twice = structuredClone(structure);
    twice[1]?.elements1.push(input('text', 'email'));
    const dup = await put(`/api/onlineForms?companyid=${companyA}`, formBody({ api: JSON.stringify(twice) }));
    expect(dup.statusCode).toBe(400);
    expect(dup.json().fieldErrors).toContainEqual({
      field: 'rows.1.elements1.1.options.field',
      key: 'dynamicForms.item_already_exists',
      params: { name: 'email' },
    });
    expect(dup.json().message).toContain('email');

    const { formId } = await createForm();
    const taken = await put(`/api/onlineForms?companyid=${companyA}`, formBody({ form_id: formId }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fieldErrors[0].field).toBe('form_id');

    const noBook = await put(`/api/onlineForms?companyid=${companyA}`, formBody({ auto_nr: true }));
    expect(noBook.statusCode).toBe(400);
    expect(noBook.json().fieldErrors[0].field).toBe('book');
    const badBook = await put(
      `/api/onlineForms?companyid=${companyA}`,
      formBody({ auto_nr: true, book: 999999 }),
    );
    expect(badBook.statusCode).toBe(400);
  });

  it('versions a published structure: a later edit never changes what an earlier submission was made with', async () => {
    const { id, formId } = await createForm();
    expect((await get(`/api/onlineForms/${id}?companyid=${companyA}`)).json().version).toBe(1);
    const first = await submit(formId, { values: goodValues });
    expect(first.statusCode, first.body).toBe(201);

    // Saving the same structure again publishes nothing new.
    const body = { ...(await get(`/api/onlineForms/${id}?companyid=${companyA}`)).json() };
    delete body.audit;
    delete body.version;
    expect((await put(`/api/onlineForms?companyid=${companyA}`, body)).statusCode).toBe(200);
    expect((await get(`/api/onlineForms/${id}?companyid=${companyA}`)).json().version).toBe(1);

    const changed = structuredClone(structure) as FormStructure;
    (changed[1] as unknown as Json).elements1 = [
      input('textarea', 'request', 'required|max:2000'),
      input('date', 'visitDate', 'required'),
    ];
    expect(
      (await put(`/api/onlineForms?companyid=${companyA}`, { ...body, api: JSON.stringify(changed) }))
        .statusCode,
    ).toBe(200);
    expect((await get(`/api/onlineForms/${id}?companyid=${companyA}`)).json().version).toBe(2);

    const missingDate = await submit(formId, { values: goodValues });
    expect(missingDate.statusCode).toBe(400);
    expect(missingDate.json().fieldErrors).toEqual([
      { field: 'visitDate', key: 'validation.required', params: {} },
    ]);
    const second = await submit(formId, { values: { ...goodValues, visitDate: '2026-12-01' } });
    expect(second.statusCode, second.body).toBe(201);

    const rows = await t.database.db.select().from(formSubmissions).where(eq(formSubmissions.formId, id));
    const byRef = (ref: string) => rows.find((r) => r.reference === ref);
    const old = byRef(first.json().reference);
    const submission = (await get(`/api/onlineForms/submissions/${old?.id}?companyid=${companyA}`)).json();
    expect(submission.formVersion).toBe(1);
    expect(submission.api).not.toContain('visitDate');
    // The old submission is still saved back against its own version.
    const saved = await put(`/api/onlineForms/submissions?companyid=${companyA}`, {
      id: old?.id,
      values: submission.values,
      status: 0,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (
        await get(`/api/onlineForms/submissions/${byRef(second.json().reference)?.id}?companyid=${companyA}`)
      ).json().formVersion,
    ).toBe(2);
  });
});

describe('the public form', () => {
  it('is refused when unpublished, disabled or not online, and served without sign-in otherwise', async () => {
    const { formId: draft } = await createForm({ status: 0 });
    const { formId: disabled } = await createForm({ disabled: true });
    const { formId: offline } = await createForm({ is_online: false });
    const { formId: live } = await createForm();
    for (const formId of [draft, disabled, offline, 'no-such-form']) {
      const page = await t.app.inject({ method: 'GET', url: `/api/public/forms/${formId}` });
      expect(page.statusCode, formId).toBe(404);
      expect(page.json().key).toBe('error.form_not_found');
      const posted = await submit(formId, { values: goodValues });
      expect(posted.statusCode, formId).toBe(404);
    }
    const page = await t.app.inject({ method: 'GET', url: `/api/public/forms/${live}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ form_id: live, title: 'Αίτηση δοκιμής', version: 1 });
    expect(page.json()).not.toHaveProperty('mailTo');
  });

  it('shows a read-only form but takes no submission or draft (409 error.form_readonly)', async () => {
    const { formId } = await createForm({ readonly: true });
    const page = await t.app.inject({ method: 'GET', url: `/api/public/forms/${formId}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ form_id: formId, readonly: true });
    for (const body of [{ values: goodValues }, { values: goodValues, draft: true }]) {
      const posted = await submit(formId, body);
      expect(posted.statusCode, posted.body).toBe(409);
      expect(posted.json().key).toBe('error.form_readonly');
    }
    const { formId: writable } = await createForm();
    const live = await t.app.inject({ method: 'GET', url: `/api/public/forms/${writable}` });
    expect(live.json().readonly).toBe(false);
  });

  it('validates with the same rules, and neither validates nor stores hidden fields', async () => {
    const { id, formId } = await createForm();
    const bad = await submit(formId, { values: { ...goodValues, email: 'eleni@' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([{ field: 'email', key: 'validation.email', params: {} }]);

    const shown = await submit(formId, {
      values: { ...goodValues, isCompany: true, vatnumber: '123456789' },
    });
    expect(shown.json().fieldErrors).toEqual([
      { field: 'vatnumber', key: 'validation.vatnumber', params: {} },
    ]);

    const hidden = await submit(formId, {
      values: {
        ...goodValues,
        isCompany: false,
        vatnumber: 'not checked',
        extra: '<script>alert(1)</script>',
      },
    });
    expect(hidden.statusCode, hidden.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.reference, hidden.json().reference));
    expect(row?.formId).toBe(id);
    expect(row?.values).toEqual(goodValues);
  });

  it('refuses a filled honeypot and limits submissions per address (429 with Retry-After)', async () => {
    const { formId } = await createForm();
    const bot = await submit(formId, { values: goodValues, website: 'http://spam.example' });
    expect(bot.statusCode).toBe(400);
    expect(bot.json().key).toBe('error.submission_rejected');

    const address = '192.0.2.77';
    for (let i = 0; i < PUBLIC_LIMIT.perWindow; i++) {
      const ok = await submit(formId, { values: goodValues }, address);
      expect(ok.statusCode, ok.body).toBe(201);
    }
    const limited = await submit(formId, { values: goodValues }, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await submit(formId, { values: goodValues })).statusCode).toBe(201);
  });

  it('suggests streets of the company for an API autocomplete field', async () => {
    await t.database.db.insert(addresses).values([
      { companyId: companyA, street: 'Ερμού', postalCode: '54624' },
      { companyId: companyA, street: 'Ερμού', number: '12', postalCode: '54624' },
      { companyId: companyA, street: 'Αθηνάς', postalCode: '54625' },
    ]);
    const withStreet = structuredClone(structure);
    withStreet[1]?.elements1.push(
      input('autocomplete', 'street', '', { options: { field: 'street', label: 'Οδός', source: 'streets' } }),
    );
    const { formId } = await createForm({ api: JSON.stringify(withStreet) });
    const found = await t.app.inject({
      method: 'GET',
      url: `/api/public/forms/${formId}/lookup?field=street&q=ΕΡΜΟΥ`,
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual(['Ερμού']);
    const notAutocomplete = await t.app.inject({
      method: 'GET',
      url: `/api/public/forms/${formId}/lookup?field=email&q=ερμ`,
    });
    expect(notAutocomplete.statusCode).toBe(400);
  });

  it('keeps a draft behind a private link and submits it later', async () => {
    const { formId } = await createForm();
    const saved = await submit(formId, { values: { fullname: 'Μισή αίτηση' }, draft: true });
    expect(saved.statusCode, saved.body).toBe(201);
    const { draftToken, reference } = saved.json();
    expect(reference).toBeNull();
    expect(draftToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const back = await t.app.inject({
      method: 'GET',
      url: `/api/public/forms/${formId}/drafts/${draftToken}`,
    });
    expect(back.json()).toEqual({ values: { fullname: 'Μισή αίτηση' } });
    const done = await submit(formId, { values: goodValues, draftToken });
    expect(done.statusCode, done.body).toBe(201);
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/public/forms/${formId}/drafts/${draftToken}`,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('checks uploads on their content and type', async () => {
    const { formId } = await createForm();
    const upload = (name: string, content: Buffer, field = 'attachment') => {
      const boundary = `----forms${randomBytes(6).toString('hex')}`;
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: `/api/public/forms/${formId}/uploads?field=${field}`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
        remoteAddress: nextAddress(),
      });
    };
    expect((await upload('fake.pdf', Buffer.from('MZ not a pdf at all, an executable'))).statusCode).toBe(
      415,
    );
    expect((await upload('photo.png', PDF)).statusCode).toBe(415);
    expect(
      (await upload('big.pdf', Buffer.concat([PDF, Buffer.alloc(1024 * 1024 + 10, 32)]))).statusCode,
    ).toBe(413);
    expect((await upload('a.pdf', PDF, 'email')).statusCode).toBe(400);
    const ok = await upload('άδεια.pdf', PDF);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ name: 'άδεια.pdf', type: 'application/pdf', size: PDF.length });
    // The stored size and name win over what the browser reports.
    const file = { ...ok.json(), size: 1, name: 'x.pdf' };
    const posted = await submit(formId, { values: { ...goodValues, attachment: [file] } });
    expect(posted.statusCode, posted.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.reference, posted.json().reference));
    expect(row?.values.attachment).toEqual([ok.json()]);
    // A token is used once.
    expect((await submit(formId, { values: { ...goodValues, attachment: [ok.json()] } })).statusCode).toBe(
      400,
    );
  });
});

describe('save methods, automatic registration and payment', () => {
  it('registers the submission in the book with its PDF and files, the citizen as sender, and mails both', async () => {
    const { formId } = await createForm({
      auto_nr: true,
      book: inBook,
      saveMethod: 1,
      mailTo: 'aitiseis@deya.test',
      assign_to: operatorId,
      is_payment: true,
      fee: '35.50',
    });
    const boundary = '----formsfile';
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/public/forms/${formId}/uploads?field=attachment`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="katopsi.pdf"\r\n\r\n`,
        ),
        PDF,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      remoteAddress: nextAddress(),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const before = await counterOf(inBook);
    const mails = mail.received.length;
    const response = await submit(formId, {
      values: { ...goodValues, isCompany: true, vatnumber: '094014201', attachment: [uploaded.json()] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json();
    expect(result.protocolNumber).toBe(`${before + 1}/${protocolYearOf(new Date())}`);
    expect(result.fee).toBe('35.50');
    expect(isValidRfCode(result.rfCode)).toBe(true);

    const [row] = await t.database.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.reference, result.reference));
    const [doc] = await t.database.db
      .select()
      .from(documents)
      .where(eq(documents.id, row?.documentId ?? 0));
    expect(doc).toMatchObject({ kind: 0, protocolBookId: inBook, protocolNumber: before + 1 });
    const files = await t.database.db
      .select()
      .from(documentAttachments)
      .where(eq(documentAttachments.documentId, doc?.id ?? 0));
    expect(files.map((f) => f.fileName).sort()).toEqual([`${result.reference}.pdf`, 'katopsi.pdf']);
    const [trader] = await t.database.db
      .select()
      .from(traders)
      .where(eq(traders.id, row?.traderId ?? 0));
    expect(trader).toMatchObject({
      vatnumber: '094014201',
      email: 'eleni@example.gr',
      fullname: 'Ελένη Παπαδάκη',
    });

    // The document as staff open it: the citizen as sender, the PDF readable.
    const opened = await get(`/api/document/${doc?.id}?companyid=${companyA}`);
    expect(opened.json().senders.map((s: Json) => s.fullname ?? s.name)).toContain('Ελένη Παπαδάκη');
    const pdf = files.find((f) => f.fileName.endsWith(`${result.reference}.pdf`));
    const content = await get(`/api/document/${doc?.id}/attachments/${pdf?.id}/content`);
    expect(content.statusCode).toBe(200);
    expect(await pdfText(content.rawPayload)).toContain('Ελένη Παπαδάκη');

    // The same citizen again (by ΑΦΜ) is the same trader.
    const again = await submit(formId, {
      values: { ...goodValues, email: 'other@example.gr', isCompany: true, vatnumber: '094014201' },
    });
    const [second] = await t.database.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.reference, again.json().reference));
    expect(second?.traderId).toBe(row?.traderId);

    const sent = mail.received.slice(mails);
    const to = (address: string) => sent.find((m) => m.to.includes(address));
    expect(to('aitiseis@deya.test')?.parsed.text).toContain('Νέα σύνδεση στην οδό Αθηνάς 5');
    expect(to('eleni@example.gr')?.parsed.subject).toContain(result.reference);
    expect(to('eleni@example.gr')?.parsed.text).toContain(result.protocolNumber);
    expect(to('eleni@example.gr')?.parsed.text).toContain(result.rfCode);

    const told = await t.database.db.select().from(notifications).where(eq(notifications.userId, operatorId));
    expect(told.some((n) => n.entity === 'submission' && n.entityId === row?.id)).toBe(true);
  });

  it('a failing submission takes no number (same transaction)', async () => {
    const { formId } = await createForm({ auto_nr: true, book: inBook });
    const before = await counterOf(inBook);
    const documentsBefore = await t.database.db.$count(documents);
    await t.database.db.execute(sql`CREATE FUNCTION forms_test_fail() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN IF NEW.applicant = 'Αποτυχία' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await t.database.db.execute(sql`CREATE TRIGGER forms_test_fail BEFORE INSERT ON form_submissions
      FOR EACH ROW EXECUTE FUNCTION forms_test_fail()`);
    try {
      const failed = await submit(formId, { values: { ...goodValues, fullname: 'Αποτυχία' } });
      expect(failed.statusCode).toBe(500);
    } finally {
      await t.database.db.execute(sql`DROP TRIGGER forms_test_fail ON form_submissions`);
      await t.database.db.execute(sql`DROP FUNCTION forms_test_fail()`);
    }
    expect(await counterOf(inBook)).toBe(before);
    expect(await t.database.db.$count(documents)).toBe(documentsBefore);
    const next = await submit(formId, { values: goodValues });
    expect(next.json().protocolNumber).toBe(`${before + 1}/${protocolYearOf(new Date())}`);
  });
});

describe('the review desk', () => {
  it('moves a submission through allowed statuses only, with comments, assignment, history and notification', async () => {
    const { formId } = await createForm();
    const posted = await submit(formId, { values: goodValues });
    const [row] = await t.database.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.reference, posted.json().reference));
    const id = row?.id as number;
    const load = async () => (await get(`/api/onlineForms/submissions/${id}?companyid=${companyA}`)).json();
    expect((await load()).allowedStatuses).toEqual([1, 2, 4, 6]);
    const save = (patch: Json) =>
      put(`/api/onlineForms/submissions?companyid=${companyA}`, {
        id,
        values: goodValues,
        status: 0,
        ...patch,
      });

    const refused = await save({ status: 3 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('error.status_not_allowed');

    const progress = await save({ status: 2, comments: 'Αυτοψία την Τρίτη', assignedTo: operatorId });
    expect(progress.statusCode, progress.body).toBe(200);
    expect(progress.json()).toBe(id);
    const loaded = await load();
    expect(loaded).toMatchObject({ status: 2, assignedTo: operatorId, allowedStatuses: [3, 4] });
    expect(loaded.history.at(-1)).toMatchObject({
      fromStatus: 0,
      toStatus: 2,
      comments: 'Αυτοψία την Τρίτη',
      assignedTo: operatorId,
    });
    const told = await t.database.db.select().from(notifications).where(eq(notifications.userId, operatorId));
    expect(
      told.some((n) => n.messageKey === 'onlineForms.notification.submission_assigned' && n.entityId === id),
    ).toBe(true);

    expect((await save({ status: 0, assignedTo: operatorId })).statusCode).toBe(409);
    expect((await save({ status: 3, assignedTo: operatorId, comments: 'Συνδέθηκε' })).statusCode).toBe(200);
    expect((await save({ status: 4, assignedTo: operatorId })).statusCode).toBe(200);
    expect((await save({ status: 2, assignedTo: operatorId })).statusCode).toBe(409);
    expect((await save({ status: 5, assignedTo: operatorId, comments: 'Ξανά' })).statusCode).toBe(200);
    const history = await t.database.db
      .select()
      .from(submissionHistory)
      .where(eq(submissionHistory.submissionId, id));
    expect(history.map((h) => h.toStatus)).toEqual([0, 2, 3, 4, 5]);

    // Values are checked as on the public form; a duplicate names what it duplicates.
    const badValues = await save({
      status: 5,
      assignedTo: operatorId,
      values: { ...goodValues, email: 'x' },
    });
    expect(badValues.statusCode).toBe(400);
    expect((await save({ status: 4, assignedTo: operatorId })).statusCode).toBe(200);
    const other = await submit(formId, { values: goodValues });
    const [dupRow] = await t.database.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.reference, other.json().reference));
    const noOriginal = await put(`/api/onlineForms/submissions?companyid=${companyA}`, {
      id: dupRow?.id,
      values: goodValues,
      status: 6,
    });
    expect(noOriginal.statusCode).toBe(400);
    const dup = await put(`/api/onlineForms/submissions?companyid=${companyA}`, {
      id: dupRow?.id,
      values: goodValues,
      status: 6,
      duplicateOf: id,
      comments: 'Ίδια με την προηγούμενη',
    });
    expect(dup.statusCode, dup.body).toBe(200);
    expect(
      (await get(`/api/onlineForms/submissions/${dupRow?.id}?companyid=${companyA}`)).json().duplicateOf,
    ).toBe(id);

    // Assigned to a group (department): its members are told; another company's group is refused.
    const [nikolaou] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, 'gnikolaou'));
    const [department] = await t.database.db
      .insert(userGroups)
      .values({ companyId: companyA, name: 'Τμήμα συνδέσεων' })
      .returning({ id: userGroups.id });
    await t.database.db
      .insert(userGroupMembers)
      .values({ groupId: department?.id ?? 0, userId: nikolaou?.id ?? 0 });
    const groups = await get(`/api/onlineForms/assignee_groups?companyid=${companyA}`);
    expect(groups.json()).toContainEqual({ id: department?.id, name: 'Τμήμα συνδέσεων' });
    const toGroup = await save({
      status: 4,
      assignedTo: operatorId,
      assignedGroupId: department?.id,
      comments: 'Στο τμήμα',
    });
    expect(toGroup.statusCode, toGroup.body).toBe(200);
    expect((await load()).assignedGroupId).toBe(department?.id);
    const toldGroup = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, nikolaou?.id ?? 0));
    expect(toldGroup.some((n) => n.entity === 'submission' && n.entityId === id)).toBe(true);

    // A submission links to a case of its company, not of another.
    const otherCompany = await createCompany(
      t.database.db,
      { companyname: 'Δήμος Γ', companytitle: 'Δήμος Γ' },
      'test',
    );
    const [ownCase, foreignCase] = await t.database.db
      .insert(cases)
      .values([
        { companyId: companyA, code: 'Φ-1', name: 'Σύνδεση Αθηνάς 5' },
        { companyId: otherCompany.id, code: 'Φ-2', name: 'Άλλου δήμου' },
      ])
      .returning({ id: cases.id });
    const linkTo = (caseId: number | undefined) =>
      save({ status: 4, assignedTo: operatorId, assignedGroupId: department?.id, caseId });
    const [foreignGroup] = await t.database.db
      .insert(userGroups)
      .values({ companyId: otherCompany.id, name: 'Ξένο τμήμα' })
      .returning({ id: userGroups.id });
    expect(
      (await save({ status: 4, assignedTo: operatorId, assignedGroupId: foreignGroup?.id })).statusCode,
    ).toBe(400);
    expect((await linkTo(foreignCase?.id)).statusCode).toBe(400);
    expect((await linkTo(ownCase?.id)).statusCode).toBe(200);
    expect((await load()).caseId).toBe(ownCase?.id);
  });

  it('lists, searches (also globally), prints and keeps other companies out', async () => {
    const { id: formRowId, formId } = await createForm();
    const posted = await submit(formId, { values: { ...goodValues, fullname: 'Σπυρίδων Αλεξίου' } });
    const reference = posted.json().reference as string;
    const list = await get(
      `/api/onlineForms/submissions/search?companyid=${companyA}&formId=eq(${formRowId})&search=ΑΛΕΞΙΟΥ`,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content.map((r: Json) => r.reference)).toEqual([reference]);
    const global = await get(`/api/search?companyid=${companyA}&search=αλεξιου`);
    expect(global.statusCode, global.body).toBe(200);
    expect(global.json().submissionDTOList.map((r: Json) => r.reference)).toContain(reference);
    const id = list.json().content[0].id;
    // The list exports as the screen shows it: CSV of the filtered rows with Greek headers and labels.
    const exported = await t.app.inject({
      method: 'POST',
      url: `/api/export?companyid=${companyA}`,
      headers: admin,
      payload: {
        uri: `/api/onlineForms/submissions/search?companyid=${companyA}&formId=eq(${formRowId})`,
        params: { format: 'csv', columns: ['reference', 'applicant', 'status'], lang: 'el' },
      },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const csv = Buffer.from(exported.json().file, 'base64').toString('utf8');
    expect(csv).toContain('Αριθμός υποβολής');
    expect(csv).toContain(`${reference},Σπυρίδων Αλεξίου,Ανοιχτή`);
    const people = await get(`/api/onlineForms/assignees?companyid=${companyA}`);
    expect(people.json()).toContainEqual({ id: operatorId, name: 'Παπαδοπούλου Μαρία' });
    const pdf = await get(`/api/onlineForms/submissions/${id}/pdf?companyid=${companyA}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(pdf.rawPayload)).toContain('Σπυρίδων Αλεξίου');
  });
});
