import { isValidRf } from '@protocol/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/files.ts';
import { createCompany } from '../companies/api.ts';
import { notifications } from '../notifications/notifications.schema.ts';
import { cases, documentAttachments, documents } from '../protocol/protocol.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { userGroupMembers, userGroups } from '../users/groups.schema.ts';
import { users } from '../users/users.schema.ts';
import {
  admin,
  companyA,
  counterOf,
  createForm,
  get,
  goodValues,
  inBook,
  type Json,
  jobOfSubmission,
  mail,
  nextAddress,
  operatorId,
  PDF,
  protocolYearOf,
  put,
  storedObjects,
  submit,
  t,
  useFormsApp,
} from './forms.fixtures.ts';
import { formSubmissions, submissionHistory } from './forms.schema.ts';
import { type SubmissionJobPayload, submissionJob } from './submission.job.ts';

useFormsApp();

describe('save methods, automatic registration and payment', () => {
  it('registers the submission in the book with its PDF and files, the citizen’s name as sender, and mails both', async () => {
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
    expect(isValidRf(result.rfCode)).toBe(true);

    const [row] = await t.database.db
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.reference, result.reference));
    const [doc] = await t.database.db
      .select()
      .from(documents)
      .where(eq(documents.id, row?.documentId ?? 0));
    expect(doc).toMatchObject({ kind: 0, protocolBookId: inBook, protocolNumber: before + 1 });
    expect(row?.protocolNumber).toBe(result.protocolNumber);
    // The PDF, the files and the e-mails are the job's, after the commit (issue 31).
    const job = await jobOfSubmission(row?.id ?? 0);
    expect(job.state, job.error ?? '').toBe('succeeded');
    const filesOf = () =>
      t.database.db
        .select()
        .from(documentAttachments)
        .where(eq(documentAttachments.documentId, doc?.id ?? 0));
    const files = await filesOf();
    expect(files.map((f) => f.fileName).sort()).toEqual([`${result.reference}.pdf`, 'katopsi.pdf']);
    // Run again (a worker that died before marking it done): nothing attached twice, no stray PDF kept.
    const storedBefore = await storedObjects();
    expect(
      await submissionJob({
        payload: job.payload as SubmissionJobPayload,
        job,
        db: t.database.db,
        signal: new AbortController().signal,
        progress: async () => {},
      }),
    ).toEqual({ attached: 0 });
    expect((await filesOf()).map((f) => f.id).sort()).toEqual(files.map((f) => f.id).sort());
    expect(await storedObjects()).toEqual(storedBefore);
    // The citizen's receipt, by the private token of the answer: ready once the job has run.
    const receipt = (path = '') =>
      t.app.inject({ method: 'GET', url: `/api/public/forms/${formId}/receipts/${result.receipt}${path}` });
    expect((await receipt()).json()).toEqual({ ready: true });
    const receiptPdf = await receipt('/pdf');
    expect(receiptPdf.statusCode).toBe(200);
    expect(receiptPdf.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(receiptPdf.rawPayload)).toContain(result.protocolNumber);
    const other = await createForm({ auto_nr: true, book: inBook });
    for (const url of [
      `/api/public/forms/${other.formId}/receipts/${result.receipt}`,
      `/api/public/forms/${formId}/receipts/v1.${'A'.repeat(40)}`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    // A citizen the company does not know is no trader yet (issue 29 item 19): the sender is the name.
    expect(row?.traderId).toBeNull();
    const opened = await get(`/api/document/${doc?.id}?companyid=${companyA}`);
    expect(opened.json()).toMatchObject({ name: 'Ελένη Παπαδάκη', senders: [] });
    const pdf = files.find((f) => f.fileName.endsWith(`${result.reference}.pdf`));
    const content = await get(`/api/document/${doc?.id}/attachments/${pdf?.id}/content`);
    expect(content.statusCode).toBe(200);
    expect(await pdfText(content.rawPayload)).toContain('Ελένη Παπαδάκη');

    const sent = mail.received.slice(mails, mails + 2);
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

describe('issue 29 item 19: a citizen becomes a trader when staff accept the submission', () => {
  const tradersWithVat = (vatnumber: string) =>
    t.database.db
      .select()
      .from(traders)
      .where(and(eq(traders.companyId, companyA), eq(traders.vatnumber, vatnumber)));
  const submissionOf = async (reference: string) =>
    (await t.database.db.select().from(formSubmissions).where(eq(formSubmissions.reference, reference)))[0];
  const accept = (id: number, status: number, values: Json = goodValues) =>
    put(`/api/onlineForms/submissions?companyid=${companyA}`, { id, values, status });

  it('issue 29 item 19: a public submission with a known ΑΦΜ links to that trader and creates none', async () => {
    const known = await t.app.inject({
      method: 'POST',
      url: `/api/traders?companyid=${companyA}`,
      headers: admin,
      payload: {
        individual: false,
        fullname: 'Υδροτεχνική Α.Ε.',
        vatnumber: '094019245',
        traderbanks: [],
        customFields: {},
      },
    });
    expect(known.statusCode, known.body).toBe(201);
    const before = await t.database.db.$count(traders);
    for (const extra of [{}, { auto_nr: true, book: inBook }]) {
      const { formId } = await createForm(extra);
      const posted = await submit(formId, {
        values: { ...goodValues, isCompany: true, vatnumber: '094019245' },
      });
      expect(posted.statusCode, posted.body).toBe(201);
      const row = await submissionOf(posted.json().reference);
      expect(row?.traderId).toBe(known.json().id);
      if (row?.documentId) {
        const opened = await get(`/api/document/${row.documentId}?companyid=${companyA}`);
        expect(opened.json().senders.map((s: Json) => s.id)).toEqual([known.json().id]);
      }
    }
    expect(await t.database.db.$count(traders)).toBe(before);
  });

  it('issue 29 item 19: an unknown ΑΦΜ creates no trader until the submission is accepted, then exactly one', async () => {
    const { formId } = await createForm({ auto_nr: true, book: inBook });
    const values = { ...goodValues, email: 'nikos@example.gr', isCompany: true, vatnumber: '094422282' };
    const posted = await submit(formId, { values });
    expect(posted.statusCode, posted.body).toBe(201);
    const row = await submissionOf(posted.json().reference);
    expect(row?.traderId).toBeNull();
    expect(await tradersWithVat('094422282')).toEqual([]);

    // Spam is closed or marked a duplicate from open: still nobody in the traders.
    const spam = await submit(formId, { values: { ...values, vatnumber: '123456783' } });
    const spamRow = await submissionOf(spam.json().reference);
    expect((await accept(spamRow?.id as number, 4, { ...values, vatnumber: '123456783' })).statusCode).toBe(
      200,
    );
    expect(await tradersWithVat('123456783')).toEqual([]);

    // Confirmed by staff: the citizen becomes one trader, linked, and the sender of the document.
    const confirmed = await accept(row?.id as number, 1, values);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const created = await tradersWithVat('094422282');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ email: 'nikos@example.gr', fullname: 'Ελένη Παπαδάκη' });
    expect((await submissionOf(posted.json().reference))?.traderId).toBe(created[0]?.id);
    const opened = await get(`/api/document/${row?.documentId}?companyid=${companyA}`);
    expect(opened.json().senders.map((s: Json) => s.id)).toEqual([created[0]?.id]);
    const loaded = await get(`/api/onlineForms/submissions/${row?.id}?companyid=${companyA}`);
    expect(loaded.json().traderId).toBe(created[0]?.id);
  });

  it('issue 29 item 19: a second acceptance does not create a second trader', async () => {
    const { formId } = await createForm();
    const values = { ...goodValues, email: 'maria.k@example.gr', isCompany: true, vatnumber: '094014201' };
    const first = await submit(formId, { values });
    const second = await submit(formId, { values });
    const a = await submissionOf(first.json().reference);
    const b = await submissionOf(second.json().reference);
    expect([a?.traderId, b?.traderId]).toEqual([null, null]);
    // One accepted twice over (confirmed, then in progress, resolved), then the other of the same citizen.
    for (const status of [1, 2, 3])
      expect((await accept(a?.id as number, status, values)).statusCode).toBe(200);
    expect((await accept(b?.id as number, 2, values)).statusCode).toBe(200);
    const created = await tradersWithVat('094014201');
    expect(created).toHaveLength(1);
    expect((await submissionOf(second.json().reference))?.traderId).toBe(created[0]?.id);
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
    // Issue 29 item 15: the statuses in words, not their catalog keys.
    expect(refused.json().message).toBe('Η αλλαγή κατάστασης από «Ανοιχτή» σε «Επιλυμένη» δεν επιτρέπεται');

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
