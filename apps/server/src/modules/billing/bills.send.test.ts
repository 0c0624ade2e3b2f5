import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../platform/auth.ts';
import { createJobQueue, jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { pdfText } from '../../test/files.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { startMailServer, type TestMailServer } from '../../test/mail-server.ts';
import { client, installMeter, newConsumer } from '../../test/water-fixtures.ts';
import { emailJob } from './bills.send.jobs.ts';
import { emailBills } from './bills.send.ts';
import { billingModule } from './index.ts';

/**
 * Sending the bills (issue 17, spec §3 send status): a finalized run of two routes, its bills
 * e-mailed with their PDF to the in-process SMTP server (the receiver's address before the owner's),
 * a refused address and the bills without one marked for print, a bill left uncertain by a crash
 * never mailed again, the route's merged PDF in route order marking its bills printed, and the
 * route's sending completed.
 */
let t: TestApp;
let mail: TestMailServer;
let admin: { authorization: string };
let worker: JobWorker | undefined;
let companyId: number;
let runId: number;
const routes: Record<string, number> = {};
const bills: Record<string, number> = {};

type Json = Record<string, unknown>;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: admin, payload: payload as Json });
const sendStatus = async (id: number) => (await get(`/api/billing/bills/${id}`)).json().sendStatus;
const routeCounts = async (code: string) =>
  ((await get(`/api/billing/runs/${runId}/sending`)).json().routes as Json[]).find((r) => r.code === code);

beforeAll(async () => {
  mail = await startMailServer({ refuse: ['gone@example.org'] });
  t = await startTestApp({ SMTP_URL: mail.url, MAIL_FROM: 'ΔΕΥΑ <bills@deya-example.gr>' });
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyId = (await get('/api/users/authenticatedUser')).json().companies[0].id;
  const routeRows = (await get('/api/readouts/routes')).json() as Json[];
  for (const code of ['001', '002']) routes[code] = routeRows.find((r) => r.code === code)?.id as number;
  const trader = async (lastname: string, email: string | null) =>
    (await post('/api/traders', { individual: true, lastname, firstname: 'Ελένη', email })).json().id;
  // 901 mails its owner, 902 its receiver, 903 has no address, 904's address is refused; 905 on route 002.
  const plan: [route: string, number: string, owner: string | null, receiver: string | null][] = [
    ['001', '904', 'gone@example.org', null],
    ['001', '901', 'owner901@example.org', null],
    ['001', '902', null, 'receiver902@example.org'],
    ['001', '903', null, null],
    ['002', '905', 'owner905@example.org', null],
  ];
  const api = client(t, admin);
  for (const [route, number, ownerEmail, receiverEmail] of plan) {
    const id = await newConsumer(
      api,
      '',
      ['01', route, number],
      { individual: true, lastname: `Send${number}`, firstname: 'Ελένη', email: ownerEmail },
      {
        supplyAddress: `Οδός ${number}`,
        fields: { receiverId: receiverEmail ? await trader(`Receiver${number}`, receiverEmail) : null },
      },
    );
    await installMeter(api, '', id, { serialNumber: `SEND-${number}`, initialReading: 100 });
    const saved = await post('/api/readouts/readings', {
      routeId: routes[route],
      year: 2026,
      period: 1,
      consumerId: id,
      reading: 110 + Number(number) - 900,
      readOn: '2026-04-20',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    bills[number] = id; // the consumer, until the run made its bill
  }
  // The run and its finalizing, with a worker of its own for the billing jobs.
  worker = startJobWorker(t.database.db, jobRegistryOf([billingModule]), { pollMs: 20, leaseMs: 5000 });
  const started = await post('/api/billing/runs', {
    year: 2026,
    period: 1,
    scope: 'routes',
    ids: [routes['001'], routes['002']],
    issueDate: '2026-05-10',
  });
  expect(started.statusCode, started.body).toBe(201);
  runId = started.json().id;
  await waitForJob(t, admin, started.json().jobId);
  const finalizing = await post(`/api/billing/runs/${runId}/finalize`, {});
  expect(finalizing.statusCode, finalizing.body).toBe(202);
  expect((await waitForJob(t, admin, finalizing.json().jobId)).result).toMatchObject({ finalized: 5 });
  for (const number of Object.keys(bills)) {
    bills[number] = (await get(`/api/billing/consumers/${bills[number]}/bills`)).json()[0].id;
  }
  // Stopped: the first e-mail job below waits in the queue while a crash is simulated.
  await worker.stop();
  worker = undefined;
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await mail?.close();
});

describe('sending the bills', () => {
  it('counts the finalized bills of each route on hold, with and without an address', async () => {
    expect(await routeCounts('001')).toMatchObject({ finalized: 4, hold: 4, holdWithEmail: 3, sent: 0 });
    expect(await routeCounts('002')).toMatchObject({ finalized: 1, hold: 1, holdWithEmail: 1 });
  });

  it('mails a route with each PDF attached, sends a refusal to print, and never mails a bill twice', async () => {
    const started = await post('/api/billing/dispatches/email', { runId, routeId: routes['001'] });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({
      email: 3,
      print: 1,
      dispatch: { kind: 'email', state: 'queued' },
    });
    const dispatch = started.json().dispatch;
    for (const n of ['901', '902', '903', '904']) expect(await sendStatus(bills[n] as number)).toBe(1);
    // A crash right after 901 was marked, before its mail was known to be accepted: it is uncertain now.
    await t.database.db.execute(
      sql`UPDATE billing_bills SET send_attempted_at = now() WHERE id = ${bills['901'] as number}`,
    );
    worker = startJobWorker(t.database.db, jobRegistryOf([billingModule]), { pollMs: 20, leaseMs: 5000 });
    const job = await waitForJob(t, admin, dispatch.jobId);
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(job.result).toEqual({ mailed: 1, refused: 1 });
    // Only the receiver of 902 got a mail: 901 is uncertain, 903 has no address, 904's was refused.
    expect(mail.received.map((m) => m.to)).toEqual([['receiver902@example.org']]);
    const [message] = mail.received;
    expect(message?.parsed.subject).toMatch(/^Λογαριασμός ύδρευσης ΛΥΔ-\d+\/2026 — /);
    expect(message?.parsed.text).toContain('RF');
    const [attachment] = message?.parsed.attachments ?? [];
    expect(attachment?.mimeType).toBe('application/pdf');
    const pdf = Buffer.from(attachment?.content as ArrayBuffer);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(pdf)).toContain('Receiver902');
    expect(await sendStatus(bills['902'] as number)).toBe(2);
    const refused = (await get(`/api/billing/dispatches/${dispatch.id}`)).json();
    expect(refused).toMatchObject({ state: 'done', bills: 1, refused: 1 });
    expect(await routeCounts('001')).toMatchObject({ hold: 0, uncertain: 1, toPrint: 2, sent: 1 });
    // The job run again (as after a crash of its worker) mails nothing more.
    const rerun = await emailJob({
      payload: { dispatchId: dispatch.id },
      db: t.database.db,
      job: job as never,
      progress: async () => undefined,
      signal: new AbortController().signal,
    });
    expect(rerun).toEqual({ mailed: 1, refused: 1 });
    expect(mail.received).toHaveLength(1);
  }, 60_000);

  it('mails chosen bills: only those on hold, once', async () => {
    const started = await post('/api/billing/dispatches/email', {
      billIds: [bills['905'], bills['901'], bills['902']],
    });
    expect(started.json()).toMatchObject({ email: 1, print: 0 });
    expect((await waitForJob(t, admin, started.json().dispatch.jobId)).state).toBe('succeeded');
    expect(mail.received.map((m) => m.to[0])).toEqual(['receiver902@example.org', 'owner905@example.org']);
    const again = await post('/api/billing/dispatches/email', { runId });
    expect(again.json()).toMatchObject({ email: 0, print: 0 });
    expect((await waitForJob(t, admin, again.json().dispatch.jobId)).result).toEqual({
      mailed: 0,
      refused: 0,
    });
    expect(mail.received).toHaveLength(2);
  }, 60_000);

  it("prints the route's bills marked for print into one PDF in route order and marks them printed", async () => {
    const started = await post('/api/billing/dispatches/print', { runId, routeId: routes['001'] });
    expect(started.statusCode, started.body).toBe(201);
    const job = await waitForJob(t, admin, started.json().dispatch.jobId);
    expect(job.result).toEqual({ printed: 2 });
    const dispatch = (await get(`/api/billing/dispatches/${started.json().dispatch.id}`)).json();
    expect(dispatch).toMatchObject({ kind: 'print', state: 'done', bills: 2, routeCode: '001' });
    const file = await get(`/api/billing/dispatches/${dispatch.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(file.rawPayload);
    // One bill a page, 903 before 904 (route order by code, no positions set).
    expect(text.match(/Λογαριασμός ύδρευσης – αποχέτευσης/g)).toHaveLength(2);
    expect(text.indexOf('Send903')).toBeGreaterThan(-1);
    expect(text.indexOf('Send903')).toBeLessThan(text.indexOf('Send904'));
    expect(await sendStatus(bills['903'] as number)).toBe(2);
    expect(await sendStatus(bills['904'] as number)).toBe(2);
    expect(await routeCounts('001')).toMatchObject({ toPrint: 0, sent: 3, uncertain: 1 });
    // Nothing left to print: a second file holds nothing and is not made.
    const again = await post('/api/billing/dispatches/print', { runId, routeId: routes['001'] });
    expect((await waitForJob(t, admin, again.json().dispatch.jobId)).result).toEqual({ printed: 0 });
    expect((await get(`/api/billing/dispatches/${again.json().dispatch.id}/file`)).statusCode).toBe(404);
    const sending = (await get(`/api/billing/runs/${runId}/sending`)).json();
    expect(sending.dispatches.map((d: Json) => d.kind)).toEqual(['print', 'print', 'email', 'email']);
  }, 60_000);

  it("completes a route's sending: its sent bills only", async () => {
    const done = await post(`/api/billing/runs/${runId}/sending/complete`, { routeId: routes['001'] });
    expect(done.json()).toEqual({ completed: 3 });
    expect(await routeCounts('001')).toMatchObject({ sent: 0, completed: 3, uncertain: 1 });
    expect(await sendStatus(bills['901'] as number)).toBe(1);
  });

  it('mails an uncertain bill again only when the operator asks for it', async () => {
    const plain = await post('/api/billing/dispatches/email', { billIds: [bills['901']] });
    expect(plain.json()).toMatchObject({ email: 0, print: 0 });
    await waitForJob(t, admin, plain.json().dispatch.jobId);
    expect(mail.received).toHaveLength(2);
    const asked = await post('/api/billing/dispatches/email', { billIds: [bills['901']], uncertain: true });
    expect(asked.json()).toMatchObject({ email: 1, print: 0 });
    expect((await waitForJob(t, admin, asked.json().dispatch.jobId)).result).toEqual({
      mailed: 1,
      refused: 0,
    });
    expect(mail.received.map((m) => m.to[0])).toEqual([
      'receiver902@example.org',
      'owner905@example.org',
      'owner901@example.org',
    ]);
    expect(await sendStatus(bills['901'] as number)).toBe(2);
    expect(await routeCounts('001')).toMatchObject({ uncertain: 0, sent: 1, completed: 3 });
  }, 60_000);

  it('prints chosen bills: a corrected bill after a credit, into its own file, then closes that sending', async () => {
    const credit = await post(`/api/billing/bills/${bills['903']}/credit`, { reason: 'Λάθος ένδειξη' });
    expect(credit.statusCode, credit.body).toBe(201);
    const corrected = await post(`/api/billing/bills/${bills['903']}/correction`, undefined);
    expect(corrected.statusCode, corrected.body).toBe(201);
    const correctedId = corrected.json().id as number;
    expect(await sendStatus(correctedId)).toBe(0);
    // 905 was mailed already: of the two chosen, only the corrected bill (on hold) is printed.
    const started = await post('/api/billing/dispatches/print', { billIds: [correctedId, bills['905']] });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ email: 0, print: 1, dispatch: { kind: 'print', runId: null } });
    expect(await sendStatus(correctedId)).toBe(1);
    const job = await waitForJob(t, admin, started.json().dispatch.jobId);
    expect(job.result).toEqual({ printed: 1 });
    const dispatchId = started.json().dispatch.id as number;
    const text = await pdfText((await get(`/api/billing/dispatches/${dispatchId}/file`)).rawPayload);
    expect(text).toContain('Διορθωμένος λογαριασμός');
    expect(text).toContain('Send903');
    expect(text).not.toContain('Send905');
    expect(await sendStatus(correctedId)).toBe(2);
    // Listed among the sendings outside runs (not the run's), with its bill still to close.
    const chosen = (await get('/api/billing/dispatches')).json().dispatches as Json[];
    expect(chosen.map((d) => d.id)).toContain(dispatchId);
    expect(chosen.every((d) => d.runId === null)).toBe(true);
    expect(chosen.find((d) => d.id === dispatchId)).toMatchObject({ state: 'done', bills: 1, sentBills: 1 });
    const run = (await get(`/api/billing/runs/${runId}/sending`)).json().dispatches as Json[];
    expect(run.map((d) => d.id)).not.toContain(dispatchId);
    // Nothing printable among the chosen now: refused, and no empty sending is left behind.
    const nothing = await t.app.inject({
      method: 'POST',
      url: '/api/billing/dispatches/print',
      headers: { ...admin, 'accept-language': 'en' },
      payload: { billIds: [correctedId, bills['905'] as number] },
    });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe(
      'None of the chosen bills is a finalized bill on hold or marked for print.',
    );
    expect(nothing.json().key).toBe('billing.error.nothing_to_print');
    expect((await get('/api/billing/dispatches')).json().dispatches).toHaveLength(chosen.length);
    const closed = await post(`/api/billing/dispatches/${dispatchId}/complete`, {});
    expect(closed.json()).toEqual({ completed: 1 });
    expect(await sendStatus(correctedId)).toBe(9);
    expect((await get(`/api/billing/dispatches/${dispatchId}`)).json().sentBills).toBe(0);
    expect((await post('/api/billing/dispatches/999999/complete', {})).statusCode).toBe(404);
  }, 60_000);

  it('refuses a scope it cannot send, naming the field, and mail without a mail server', async () => {
    const none = await post('/api/billing/dispatches/email', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().fieldErrors[0]).toMatchObject({
      field: 'billIds',
      key: 'validation.billing_send_scope',
    });
    const routeAlone = await post('/api/billing/dispatches/email', { routeId: routes['001'] });
    expect(routeAlone.json().fieldErrors[0].field).toBe('runId');
    const other = (await get('/api/readouts/routes')).json().find((r: Json) => r.code === '003');
    if (other) {
      const foreign = await post('/api/billing/dispatches/print', { runId, routeId: other.id });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().fieldErrors[0]).toMatchObject({
        field: 'routeId',
        key: 'billing.error.route_not_in_run',
      });
    }
    expect(
      (await post('/api/billing/dispatches/print', { runId: 999_999, routeId: routes['001'] })).statusCode,
    ).toBe(404);
    for (const scope of [{}, { runId }, { runId, routeId: routes['001'], billIds: [bills['901']] }]) {
      const refused = await post('/api/billing/dispatches/print', scope);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fieldErrors[0]).toMatchObject({
        field: 'billIds',
        key: 'validation.billing_print_scope',
      });
    }
    const principal = { userId: 1, username: 'admin', superAdmin: true } as unknown as Principal;
    const queue = createJobQueue(jobRegistryOf([billingModule]));
    await expect(
      emailBills(t.database.db, queue, false, principal, companyId, { runId }, 'test'),
    ).rejects.toMatchObject({ status: 409, key: 'billing.error.mail_not_configured' });
  });
});
