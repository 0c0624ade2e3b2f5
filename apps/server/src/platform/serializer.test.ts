import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './serializer.ts';

const route = (schema: z.ZodType) =>
  responseSerializerCompiler({ schema, method: 'GET', url: '/api/example', httpStatus: '200' });

describe('the reply serializer', () => {
  it('writes only what the contract names, and fails a reply without a required property', () => {
    const serialize = route(z.object({ id: z.number().int(), name: z.string() }));
    expect(JSON.parse(serialize({ id: 7, name: 'Παπαδόπουλος', passwordHash: 'secret' }))).toEqual({
      id: 7,
      name: 'Παπαδόπουλος',
    });
    expect(() => serialize({ id: 7 })).toThrow();
  });

  it('is built at its first reply and then reused, with the same result', () => {
    const serialize = route(z.array(z.object({ code: z.string(), amount: z.string() })));
    const rows = [{ code: '01-001-101', amount: '1135.30', extra: true }];
    const first = serialize(rows);
    expect(serialize(rows)).toBe(first);
    expect(JSON.parse(first)).toEqual([{ code: '01-001-101', amount: '1135.30' }]);
  });
});
