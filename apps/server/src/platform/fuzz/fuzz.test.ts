import { Worker } from 'node:worker_threads';
import { allPermissions } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../modules/companies/api.ts';
import { users } from '../../modules/users/users.schema.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { hashPassword } from '../password.ts';
import {
  type GeneratedRequest,
  type JsonSchema,
  type Operation,
  operationsOf,
  requestOf,
  schemaValue,
  sweepOf,
} from './openapi-arbitraries.ts';

/**
 * Issue 12: every route of the OpenAPI document — those of modules still to come included — is
 * called as anonymous, as an operator of another company who may read everything there, and as the
 * super administrator, with generated valid and hostile input. No answer may be a 5xx, every
 * refusal has the JSON error shape, and no answer to the other company's operator carries company
 * A's data. The database is this file's own: destructive calls are welcome.
 */
const SEED = 20_261_125;
const MARKER = 'ΜΥΣΤΙΚΟ-Α-7f3c';
const FUZZ_ADDRESS = '10.9.8.7';
const READER = { username: 'fuzzreader', password: 'Fuzz-Reader-2026' };

let t: TestApp;
let operations: Operation[];
let components: Record<string, JsonSchema>;
const sessions: Record<'admin' | 'reader', { authorization: string }> = {
  admin: { authorization: '' },
  reader: { authorization: '' },
};
/** Ids of company A's records: the other company's operator must reach none of them. */
const companyA: Record<string, number> = {};
let companyB: number;

/**
 * Issue 29: a request that takes longer than this fails like a 500 does. One signed-in request
 * (a loop driven by a client's number) held the whole server for an hour.
 */
const ANSWER_WITHIN_MS = 2000;
/**
 * A request that holds the event loop (a synchronous loop) stops every timer of this thread, the
 * test's own included: a watchdog thread names it on stderr and stops the test process, so a hang
 * fails CI instead of holding it.
 */
const HANG_MS = 20_000;
const watchdog = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
  const { writeSync } = require('node:fs');
  let current = null;
  parentPort.on('message', (message) => { current = message; });
  setInterval(() => {
    if (current && Date.now() - current.since > workerData.hangMs) {
      writeSync(2, '\\nfuzz: no answer within ' + workerData.hangMs + ' ms, the test process stops: ' + current.what + '\\n');
      process.kill(process.pid, 'SIGKILL');
    }
  }, 500);`,
  { eval: true, workerData: { hangMs: HANG_MS } },
);
watchdog.unref();

/** The response and how long it took: problemOf fails it beyond ANSWER_WITHIN_MS. */
async function inject(request: GeneratedRequest, headers: Record<string, string>) {
  watchdog.postMessage({ since: Date.now(), what: describeRequest(request) });
  const started = performance.now();
  const response = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...request.headers, ...headers },
    payload: request.payload,
    remoteAddress: FUZZ_ADDRESS,
  });
  watchdog.postMessage(null);
  return Object.assign(response, { took: performance.now() - started });
}

const describeRequest = (request: GeneratedRequest) =>
  `${request.method} ${request.url.slice(0, 160)} ${String(request.payload ?? '').slice(0, 160)}`;

async function signIn(who: 'admin' | 'reader') {
  const password = who === 'admin' ? ADMIN_PASSWORD : READER.password;
  const username = who === 'admin' ? 'admin' : READER.username;
  sessions[who] = await t.login(username, password);
}

/** Fuzzed calls may change a password, deactivate or sign out: put the two operators back. */
async function keepSessions() {
  for (const who of ['admin', 'reader'] as const) {
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/users/authenticatedUser',
      headers: sessions[who],
    });
    if (me.statusCode === 200) continue;
    const username = who === 'admin' ? 'admin' : READER.username;
    const password = who === 'admin' ? ADMIN_PASSWORD : READER.password;
    await t.database.db
      .update(users)
      .set({ passwordHash: await hashPassword(password), active: true })
      .where(eq(users.username, username));
    await signIn(who);
  }
}

function problemOf(
  who: string,
  request: GeneratedRequest,
  response: LightMyRequestResponse & { took: number },
): string | null {
  const where = `${who} ${describeRequest(request)}`;
  // A 503 is what the readiness probe is for; an app under inject() runs no job worker, so it is not ready.
  const notReady = response.statusCode === 503 && request.url.split('?')[0] === '/api/ready';
  if (response.statusCode >= 500 && !notReady)
    return `${response.statusCode}: ${where} → ${response.body.slice(0, 200)}`;
  if (response.took > ANSWER_WITHIN_MS)
    return `no answer within ${ANSWER_WITHIN_MS} ms (${Math.round(response.took)}): ${where}`;
  if (response.statusCode >= 400) {
    let error: { status?: unknown; key?: unknown; message?: unknown };
    try {
      error = response.json();
    } catch {
      return `not JSON (${response.statusCode}): ${where}`;
    }
    if (
      error.status !== response.statusCode ||
      typeof error.key !== 'string' ||
      typeof error.message !== 'string'
    )
      return `not the error shape (${response.statusCode}): ${where} → ${response.body.slice(0, 200)}`;
  }
  if (who === 'reader' && response.statusCode < 300 && response.body.includes(MARKER))
    return `company A's data to company B's operator: ${where}`;
  return null;
}

beforeAll(async () => {
  // The tax registry's address goes nowhere: lookups fail at once instead of waiting on the network.
  t = await startTestApp({ AADE_REGISTRY_URL: 'http://127.0.0.1:9/RgWsPublic2' });
  await t.app.ready();
  const document = t.app.swagger() as unknown as Parameters<typeof operationsOf>[0] & {
    components?: { schemas?: Record<string, JsonSchema> };
  };
  operations = operationsOf(document);
  components = document.components?.schemas ?? {};
  await signIn('admin');

  // Company A (the demo utility) gets records carrying the marker.
  const post = async (url: string, payload: object) => {
    const response = await t.app.inject({ method: 'POST', url, headers: sessions.admin, payload });
    expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as { id: number };
  };
  companyA.company = 1;
  companyA.trader = (
    await post('/api/traders?companyid=1', { individual: false, fullname: `${MARKER} Α.Ε.` })
  ).id;
  companyA.case = (await post('/api/cases?companyid=1', { name: `${MARKER} φάκελος`, documentIds: [] })).id;
  companyA.document = (await post('/api/document?companyid=1', { kind: 0, subject: `${MARKER} θέμα` })).id;
  companyA.group = (
    await post('/api/users/groups?companyid=1', {
      name: `${MARKER} ομάδα`,
      description: null,
      permissions: ['protocol:read'],
      members: [],
    })
  ).id;

  // Company B and its operator, who may read everything in company B.
  companyB = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'fuzz'))
    .id;
  const reader = await post(`/api/users?companyid=${companyB}`, {
    username: READER.username,
    password: READER.password,
    passwordConfirmation: READER.password,
    firstname: 'Τυχαίος',
    lastname: 'Αναγνώστης',
    email: 'fuzz@deya.example',
    kind: 2,
    superAdmin: false,
    active: true,
  });
  await post(`/api/users/groups?companyid=${companyB}`, {
    name: 'Ανάγνωση όλων',
    description: null,
    permissions: allPermissions.filter((p) => p.endsWith(':read')),
    members: [reader.id],
  });
  await signIn('reader');
}, 120_000);
afterAll(async () => {
  await watchdog.terminate();
  await t?.close();
});

// First, while company B holds only its own fixtures: the generated input below creates records
// in any company, whose ids may then equal one of company A's (a custom table of B numbered 1).
describe('fuzz: another company’s ids on every route with an id', () => {
  it('company B’s operator reaches none of company A’s records', async () => {
    await keepSessions();
    const problems: string[] = [];
    for (const [index, operation] of operations.filter((o) => o.pathParams.length > 0).entries()) {
      for (const id of Object.values(companyA)) {
        let url = operation.path;
        for (const name of operation.pathParams) url = url.replace(`{${name}}`, String(id));
        const [body] = operation.body
          ? fc.sample(schemaValue(operation.body, components), { numRuns: 1, seed: SEED + index })
          : [undefined];
        const request: GeneratedRequest = {
          method: operation.method,
          url,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          payload: body === undefined ? undefined : JSON.stringify(body),
        };
        const response = await inject(request, sessions.reader);
        const problem = problemOf('reader', request, response);
        if (problem) problems.push(problem);
        else if (response.statusCode < 300) problems.push(`2xx on company A's id: ${request.method} ${url}`);
      }
      await keepSessions();
    }
    expect(problems).toEqual([]);
  }, 300_000);
});

describe('fuzz: every route, generated input', () => {
  it('defect 7: finds the routes in the OpenAPI document, with what they take', () => {
    expect(operations.length).toBeGreaterThan(100);
    // The list routes describe their parameters (issue 12, defect 7).
    const list = operations.find((o) => o.path === '/api/traders/search');
    expect(Object.keys(list?.query ?? {})).toEqual(
      expect.arrayContaining(['page', 'size', 'sort', 'search', 'companyid']),
    );
    // …and the upload route its multipart body.
    const upload = (
      t.app.swagger() as unknown as {
        paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
      }
    ).paths['/api/document/{id}/attachments']?.post;
    expect(Object.keys(upload?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
  });

  // npm test runs this file on PGlite and on PostgreSQL: each pass draws its own half of the cases
  // (another seed), so the two send as many different requests as one pass of twice the runs did,
  // at half the time each.
  const pass = process.env.TEST_DATABASE_URL ? 1 : 0;
  for (const [who, runs] of [
    ['anonymous', 3],
    ['reader', 12],
    ['admin', 20],
  ] as const) {
    it(`as ${who}: no 5xx, every refusal in the error shape, nothing of another company`, async () => {
      const problems: string[] = [];
      const ids = Object.values(companyA);
      for (const [index, operation] of operations.entries()) {
        const requests = fc.sample(requestOf(operation, components, [...ids, 1, 2, 3]), {
          numRuns: runs,
          seed: SEED + pass * 100_003 + index,
        });
        for (const request of requests) {
          const headers = who === 'anonymous' ? {} : sessions[who];
          const response = await inject(request, headers);
          const problem = problemOf(who, request, response);
          if (problem) problems.push(problem);
        }
        if (who !== 'anonymous') await keepSessions();
      }
      expect(problems).toEqual([]);
    }, 600_000);
  }
});

describe('fuzz: every number, day and quick search of every route, one at a time', () => {
  it('issue 29 items 1, 6, 7, 8, 9: huge numbers, impossible days, quick searches and far pages are answered at once, never with a 5xx', async () => {
    await keepSessions();
    const problems: string[] = [];
    let sent = 0;
    for (const operation of operations) {
      for (const request of sweepOf(operation, components, [companyA.document ?? 1])) {
        const response = await inject(request, sessions.admin);
        sent++;
        const problem = problemOf('admin', request, response);
        if (problem) problems.push(problem);
      }
      await keepSessions();
    }
    expect(sent).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
  }, 600_000);
});
