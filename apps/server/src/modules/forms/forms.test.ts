import { randomBytes } from 'node:crypto';
import type { FormStructure } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addresses } from '../settings/settings-tables.schema.ts';
import {
  companyA,
  createForm,
  formBody,
  get,
  goodValues,
  input,
  type Json,
  nextAddress,
  PDF,
  put,
  structure,
  submit,
  t,
  useFormsApp,
} from './forms.fixtures.ts';
import { formSubmissions, onlineForms } from './forms.schema.ts';
import { PUBLIC_LIMIT } from './public.service.ts';

useFormsApp();

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
    // A refused submission counts against the limit as well as an accepted one.
    const invalid = await submit(formId, { values: {} }, address);
    expect(invalid.statusCode, invalid.body).toBe(400);
    for (let i = 1; i < PUBLIC_LIMIT.perWindow; i++) {
      const ok = await submit(formId, { values: goodValues }, address);
      expect(ok.statusCode, ok.body).toBe(201);
    }
    const limited = await submit(formId, { values: goodValues }, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The refused attempt stored nothing: its submission's rows went with its transaction.
    const stored = await t.database.db
      .select({ id: formSubmissions.id })
      .from(formSubmissions)
      .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
      .where(eq(onlineForms.formId, formId));
    expect(stored).toHaveLength(PUBLIC_LIMIT.perWindow - 1);
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

  it('issue 29 item 4: a draft read by its private link is never cached (no-store)', async () => {
    const { formId } = await createForm();
    const saved = await submit(formId, { values: { fullname: 'Προσωπικά στοιχεία' }, draft: true });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.headers['cache-control']).toBe('no-store');
    const back = await t.app.inject({
      method: 'GET',
      url: `/api/public/forms/${formId}/drafts/${saved.json().draftToken}`,
    });
    expect(back.json()).toEqual({ values: { fullname: 'Προσωπικά στοιχεία' } });
    expect(back.headers['cache-control']).toBe('no-store');
    // The form's definition holds no personal data and declares itself cacheable.
    const form = await t.app.inject({ method: 'GET', url: `/api/public/forms/${formId}` });
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBeUndefined();
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
    // Registered nowhere (no auto_nr): no receipt PDF is drawn, so none is offered.
    expect(posted.json()).toMatchObject({ protocolNumber: null, receipt: null });
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
