import { normalizeText, usersCatalog } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { parseListQuery } from './query.ts';

const parse = (query: Record<string, string | string[]>) => parseListQuery(usersCatalog, query);
const failure = (query: Record<string, string | string[]>) => {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, key: error.key, params: error.params };
  }
  throw new Error('expected a 400');
};

describe('list query grammar', () => {
  it('defaults: page 0, size 50, the catalog sort', () => {
    const query = parse({});
    expect(query).toMatchObject({ page: 0, size: 50, filters: [], search: '' });
    expect(query.sort.map((s) => [s.field.id, s.desc])).toEqual([['lastname', false]]);
  });

  it('reads page, size, the itemsPerPage alias, All, and repeated sorts', () => {
    expect(parse({ page: '3', size: '25' })).toMatchObject({ page: 3, size: 25 });
    expect(parse({ itemsPerPage: '99999' }).size).toBe(99999);
    expect(parse({ size: '-1' }).size).toBe(100_000);
    const sorted = parse({ sort: ['lastname,DESC', 'firstname,asc'] });
    expect(sorted.sort.map((s) => [s.field.id, s.desc])).toEqual([
      ['lastname', true],
      ['firstname', false],
    ]);
  });

  it('reads every operator of the grammar', () => {
    const query = parse({
      lastname: 'ci(contains(Παπαδοπουλος))',
      username: 'eq(admin)',
      createdate: ['gte(2026-01-01)', 'lte(2026-12-31)'],
      kind: 'eq(1)',
      active: 'eq(true)',
      id: 'eq(7)',
    });
    expect(query.filters.map(({ field, op, value }) => `${field} ${op} ${value}`)).toEqual([
      'lastname contains Παπαδοπουλος',
      'username eq admin',
      'createdate gte 2026-01-01',
      'createdate lte 2026-12-31',
      'kind eq 1',
      'active eq true',
      'id eq 7',
    ]);
  });

  it('keeps parentheses inside a value', () => {
    expect(parse({ lastname: 'ci(contains(Νικολάου (Β)))' }).filters[0]?.value).toBe('Νικολάου (Β)');
  });

  it('answers 400 naming an unknown sort field, filter field or operator', () => {
    expect(failure({ sort: 'password,ASC' })).toEqual({
      status: 400,
      key: 'error.unknown_field',
      params: { field: 'password' },
    });
    expect(failure({ passwordHash: 'eq(x)' })).toMatchObject({
      key: 'error.unknown_field',
      params: { field: 'passwordHash' },
    });
    expect(failure({ lastname: 'like(x)' })).toMatchObject({
      key: 'error.unknown_operator',
      params: { field: 'lastname' },
    });
    expect(failure({ kind: 'gt(1)' })).toMatchObject({
      key: 'error.unknown_operator',
      params: { field: 'kind', operator: 'gt' },
    });
    expect(failure({ sort: 'lastname,SIDEWAYS' })).toMatchObject({ key: 'error.unknown_operator' });
  });

  it('answers 400 for values that do not suit the field', () => {
    expect(failure({ createdate: 'gte(21/11/2026)' })).toMatchObject({
      status: 400,
      params: { field: 'createdate' },
    });
    expect(failure({ kind: 'eq(7)' })).toMatchObject({ status: 400, params: { field: 'kind' } });
    expect(failure({ active: 'eq(maybe)' })).toMatchObject({ status: 400 });
    expect(failure({ size: '100001' })).toMatchObject({ status: 400, params: { field: 'size' } });
    expect(failure({ page: '-1' })).toMatchObject({ status: 400 });
  });

  it('issue 29 item 7: a page whose first row lies beyond 2^31 rows is a 400 naming page, before any SQL', () => {
    for (const page of ['99999999999999999999', '2147483648', '42949673'])
      expect(failure({ page, size: '50' })).toEqual({
        status: 400,
        key: 'error.bad_data',
        params: { field: 'page' },
      });
    // The last page a list of 2^31 - 1 rows could have is still read.
    expect(parse({ page: String(Math.floor(2_147_483_647 / 50)), size: '50' }).page).toBe(42_949_672);
  });

  it('issue 29 item 9: an impossible day in a date filter is a 400 naming the field', () => {
    for (const day of ['2026-02-30', '2026-13-45', '0000-01-01'])
      expect(failure({ createdate: `gte(${day})` })).toMatchObject({
        status: 400,
        params: { field: 'createdate' },
      });
  });
});

describe('Greek-aware normalisation', () => {
  it('drops accents, case and folds the final sigma', () => {
    expect(normalizeText('ΠΑΠΑΔΟΠΟΎΛΟΥ')).toBe('παπαδοπουλου');
    expect(normalizeText('Νικολάου')).toBe(normalizeText('νικολαου'));
    expect(normalizeText('Οδός')).toBe('οδοσ');
    expect(normalizeText('ΟΔΟΣ')).toBe('οδοσ');
    expect(normalizeText('Ϊλιάδα ΐ')).toBe('ιλιαδα ι');
  });
});
