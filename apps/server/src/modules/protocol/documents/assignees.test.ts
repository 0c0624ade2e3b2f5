import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, grant } from '../../../test/harness.ts';
import { type ProtocolWorld, protocolWorld } from '../protocol-fixtures.ts';

// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;

let w: ProtocolWorld;

beforeAll(async () => {
  w = await protocolWorld();
  // An operator of company A who is no longer active: never offered.
  const inactive = await createOperator(w.t, w.admin, {
    username: 'retired',
    firstname: 'Αποσυρμένος',
    lastname: 'Υπάλληλος',
    active: false,
  });
  expect(inactive.statusCode, inactive.body).toBe(201);
  await grant(w.t, 'retired', ['protocol:read']);
}, 60_000);
afterAll(async () => {
  await w?.t.close();
});

const assignees = (headers: { authorization: string } | Record<string, never>, companyId = w.companyA) =>
  w.t.app.inject({ method: 'GET', url: `/api/document/assignees?companyid=${companyId}`, headers });

describe('GET /api/document/assignees (charge and share pickers)', () => {
  it('answers a protocol:read clerk with the active operators and the groups of the company, by name', async () => {
    const response = await assignees(w.reader1);
    expect(response.statusCode, response.body).toBe(200);
    const body: Json = response.json();
    const usernames = body.operators.map((o: Json) => o.username);
    expect(usernames).toEqual(expect.arrayContaining(['writer', 'reader1', 'reader2']));
    expect(usernames).not.toContain('retired');
    // Another company's operator is not offered.
    expect(usernames).not.toContain('otherco');
    const reader1 = body.operators.find((o: Json) => o.username === 'reader1');
    expect(reader1).toEqual({ id: w.ids.reader1, username: 'reader1', fullName: 'Υπάλληλος Πρώτος' });
    // Greek-aware order of the last names (accents and case ignored, ς→σ): Δεύτερος < Πρωτοκόλλου < Πρώτος.
    const ours = usernames.filter((u: string) => ['writer', 'reader1', 'reader2'].includes(u));
    expect(ours).toEqual(['reader2', 'writer', 'reader1']);

    const department = body.groups.find((g: Json) => g.id === w.departmentId);
    expect(department).toEqual({ id: w.departmentId, name: 'Τμήμα δοκιμών', memberCount: 2 });
    expect(body.groups.map((g: Json) => g.name)).not.toContain('Όλα');
    // The Greek names (the demo's and the test's) in Greek order, accents and case ignored.
    const names: string[] = body.groups
      .map((g: Json) => g.name)
      .filter((n: string) => /^\p{Script=Greek}/u.test(n));
    expect(names.length).toBeGreaterThanOrEqual(3);
    const normalised = names.map((n) => n.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
    expect(normalised).toEqual([...normalised].sort((a, b) => a.localeCompare(b, 'el')));
  });

  it('hides another company (404) and needs a session (401)', async () => {
    expect((await assignees(w.other, w.companyA)).statusCode).toBe(404);
    expect((await assignees(w.reader1, w.companyB)).statusCode).toBe(404);
    expect((await assignees({})).statusCode).toBe(401);
    // The other company's own operator sees theirs.
    const theirs = await assignees(w.other, w.companyB);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().operators.map((o: Json) => o.username)).toEqual(['otherco']);
  });
});
