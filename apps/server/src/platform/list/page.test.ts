import { usersCatalog } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { parseListQuery } from './query.ts';
import { pageOf } from './sql.ts';

const query = (page: number, size: number) =>
  parseListQuery(usersCatalog, { page: String(page), size: String(size) });

describe('a page and its total', () => {
  it('counts while the page is still being read, not after it', async () => {
    let release: (rows: number[]) => void = () => undefined;
    let counting = false;
    const page = pageOf(
      query(0, 2),
      () => new Promise<number[]>((resolve) => (release = resolve)),
      async () => {
        counting = true;
        return 7;
      },
    );
    await Promise.resolve();
    expect(counting).toBe(true);
    release([1, 2]);
    expect(await page).toMatchObject({ content: [1, 2], totalElements: 7, totalPages: 4, last: false });
  });

  it('takes the total from a page that shows where the list ends', async () => {
    const count = async () => 99;
    expect((await pageOf(query(1, 5), async () => [1, 2], count)).totalElements).toBe(7);
    expect((await pageOf(query(0, 5), async () => [], count)).totalElements).toBe(0);
    expect((await pageOf(query(3, 5), async () => [], count)).totalElements).toBe(99);
  });
});

describe('an estimated total', () => {
  const estimated = async () => ({ n: 5000, estimated: true as const });
  it('is flagged while the page does not show where the list ends', async () => {
    const page = await pageOf(query(0, 5), async () => [1, 2, 3, 4, 5], estimated);
    expect(page).toMatchObject({ totalElements: 5000, totalEstimated: true, totalPages: 1000 });
  });

  it('gives way to the exact total a page shows, and never ends before the rows already read', async () => {
    const ending = await pageOf(query(2, 5), async () => [1, 2], estimated);
    expect(ending.totalElements).toBe(12);
    expect(ending.totalEstimated).toBeUndefined();
    const low = async () => ({ n: 1001, estimated: true as const });
    const beyond = await pageOf(query(300, 5), async () => [1, 2, 3, 4, 5], low);
    expect(beyond).toMatchObject({ totalElements: 1506, totalEstimated: true, last: false });
  });

  it('is not flagged when the count is exact', async () => {
    const page = await pageOf(
      query(0, 5),
      async () => [1, 2, 3, 4, 5],
      async () => ({ n: 40 }),
    );
    expect(page.totalEstimated).toBeUndefined();
    expect(page.totalElements).toBe(40);
  });
});
