import { LIST_EXACT_COUNT_LIMIT, usersCatalog } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { users } from '../../modules/users/users.schema.ts';
import { defineList } from './list.ts';

// How each strategy reaches a list's total, with the database replaced by what it would answer.
function listOf(total: 'exact' | 'estimatedAboveLimit', rows: number, expected: number) {
  const calls: string[] = [];
  const list = defineList({
    catalog: usersCatalog,
    columns: {
      id: users.id,
      username: users.username,
      lastname: users.lastname,
      firstname: users.firstname,
      email: users.email,
    },
    id: users.id,
    total,
    async fetch(_where, _order, limit) {
      return Array.from({ length: Math.min(limit, rows) }, (_, i) => ({ id: i }));
    },
    async count(_where, limit) {
      calls.push(limit === undefined ? 'count' : `count up to ${limit}`);
      return limit === undefined ? rows : Math.min(rows, limit);
    },
    async estimate() {
      calls.push('estimate');
      return expected;
    },
  });
  return { page: () => list.page(undefined, { size: '10' }), calls };
}

describe('the total strategies', () => {
  it('exact counts every row, whatever the size', async () => {
    const { page, calls } = listOf('exact', 250_000, 240_000);
    expect(await page()).toMatchObject({ totalElements: 250_000 });
    expect((await page()).totalEstimated).toBeUndefined();
    expect(calls).toEqual(['count', 'count']);
  });

  it('estimated counts up to the limit and is exact below it', async () => {
    const { page, calls } = listOf('estimatedAboveLimit', 640, 900);
    const result = await page();
    expect(result.totalElements).toBe(640);
    expect(result.totalEstimated).toBeUndefined();
    expect(calls).toEqual(['estimate', `count up to ${LIST_EXACT_COUNT_LIMIT + 1}`]);
  });

  it('above the limit it says the estimate, never below the limit', async () => {
    const { page } = listOf('estimatedAboveLimit', 5000, 300);
    expect(await page()).toMatchObject({ totalElements: LIST_EXACT_COUNT_LIMIT + 1, totalEstimated: true });
  });

  it('does not count at all where PostgreSQL expects far more rows than the limit', async () => {
    const { page, calls } = listOf('estimatedAboveLimit', 480_000, 501_879);
    expect(await page()).toMatchObject({ totalElements: 501_879, totalEstimated: true });
    expect(calls).toEqual(['estimate']);
  });
});
