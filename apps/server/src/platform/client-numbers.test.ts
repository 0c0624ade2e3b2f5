import { INT4_MAX } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';

/**
 * Issue 29, an outside probe: numbers and days a client sends that no row can hold or no calendar
 * has are refused by the route's schema (a 400 in the error shape) before they reach a loop or SQL.
 */
let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await startTestApp();
  await t.app.ready();
  admin = await t.login('admin', ADMIN_PASSWORD);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });

/** A 400 in the one error shape, and the fields its details name. */
function refusedFields(response: Awaited<ReturnType<typeof call>>): string[] {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json() as { status: number; key: string; fieldErrors?: { field: string }[] };
  expect(body).toMatchObject({ status: 400, key: expect.any(String), message: expect.any(String) });
  return (body.fieldErrors ?? []).map((e) => e.field);
}

const TOO_BIG = INT4_MAX + 1;

describe('numbers a client sends', () => {
  it('issue 29 item 1: an encoding code of 2^31 levels is refused at once, and the server keeps answering', async () => {
    const definition = {
      levels: TOO_BIG,
      ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`level${n}`, null])),
      ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`leveltable${n}`, null])),
      ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`cfieldid${n}`, null])),
      separator: '-',
    };
    const started = performance.now();
    const response = await call('PUT', '/api/protocol/parametrics/encoding_code?companyid=1', definition);
    expect(refusedFields(response)).toEqual(['levels']);
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('issue 29 item 8: ids beyond 32 bits in bodies are a 400 naming the field, never a 500', async () => {
    const payment = { consumerId: TOO_BIG, method: 'cash', amount: '10.00' };
    expect(refusedFields(await call('POST', '/api/payments/payments?companyid=1', payment))).toEqual([
      'consumerId',
    ]);
    expect(
      refusedFields(
        await call('POST', '/api/payments/payments?companyid=1', {
          ...payment,
          consumerId: 1,
          debtIds: [TOO_BIG],
        }),
      ),
    ).toEqual(['debtIds.0']);
    expect(refusedFields(await call('POST', '/api/payments/prepay_returns?companyid=1', payment))).toEqual([
      'consumerId',
    ]);
    expect(
      refusedFields(
        await call('POST', '/api/payments/bank/lines/1/match?companyid=1', { consumerId: TOO_BIG }),
      ),
    ).toEqual(['consumerId']);
    expect(
      refusedFields(await call('DELETE', '/api/users/meta?metaKey=users', { id: TOO_BIG, metaKey: 'users' })),
    ).toEqual(['id']);
    expect(refusedFields(await call('DELETE', '/api/users', { ids: [TOO_BIG] }))).toEqual(['ids.0']);
  });

  it('issue 29 item 8: every id of every request body in the OpenAPI document is at most 2^31 - 1', () => {
    type Schema = {
      type?: string | string[];
      maximum?: number;
      enum?: unknown[];
      const?: unknown;
      properties?: Record<string, Schema>;
      items?: Schema;
      anyOf?: Schema[];
      oneOf?: Schema[];
      allOf?: Schema[];
      $ref?: string;
    };
    const document = t.app.swagger() as unknown as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>
      >;
      components?: { schemas?: Record<string, Schema> };
    };
    const unbounded: string[] = [];
    const walk = (raw: Schema | undefined, path: string[], where: string, depth = 0): void => {
      const schema = raw?.$ref ? document.components?.schemas?.[raw.$ref.split('/').pop() ?? ''] : raw;
      if (!schema || depth > 12) return;
      for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
        walk(part, path, where, depth + 1);
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        walk(property, [...path, name], where, depth + 1);
      if (schema.items) walk(schema.items, path, where, depth + 1);
      const numeric = [schema.type].flat().some((type) => type === 'integer' || type === 'number');
      const name = path.at(-1) ?? '';
      const anId = /^id$|Id$|Ids$|^ids$|id$/.test(name);
      if (
        numeric &&
        anId &&
        !schema.enum &&
        schema.const === undefined &&
        (schema.maximum ?? Number.POSITIVE_INFINITY) > INT4_MAX
      )
        unbounded.push(`${where} ${path.join('.')}`);
    };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item))
        walk(
          operation.requestBody?.content?.['application/json']?.schema,
          [],
          `${method.toUpperCase()} ${path}`,
        );
    expect(unbounded).toEqual([]);
  });
});

describe('days a client sends', () => {
  it('issue 29 item 9: the day summary and its PDF refuse 30 February and month 13', async () => {
    for (const date of ['2026-02-30', '2026-13-45', '0000-01-01']) {
      for (const path of ['/api/payments/day_summary', '/api/payments/day_summary/pdf'])
        expect(
          refusedFields(await call('GET', `${path}?companyid=1&date=${date}`)),
          `${path} ${date}`,
        ).toEqual(['date']);
    }
    expect((await call('GET', '/api/payments/day_summary?companyid=1&date=2024-02-29')).statusCode).toBe(200);
  });
});
