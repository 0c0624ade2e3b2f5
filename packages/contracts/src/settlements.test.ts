import { describe, expect, it } from 'vitest';
import { defaultSettlementCategories, settlementCategoryRowSchema } from './settlements.ts';

describe('categories', () => {
  it('ships valid defaults of 12, 24 and 48 instalments', () => {
    expect(defaultSettlementCategories.map((c) => c.maxInstalments)).toEqual([12, 24, 48]);
    for (const c of defaultSettlementCategories) {
      expect(settlementCategoryRowSchema.safeParse({ ...c, id: null, active: true }).success).toBe(true);
    }
  });
  it('refuses a max below the min', () => {
    const row = { ...defaultSettlementCategories[0], id: null, active: true, maxInstalment: '10.00' };
    expect(settlementCategoryRowSchema.safeParse(row).error?.issues[0]).toMatchObject({
      path: ['maxInstalment'],
      message: 'validation.min_value',
      params: { value: '20.00' },
    });
  });
  it('refuses a malformed amount without throwing', () => {
    const row = { ...defaultSettlementCategories[0], id: null, active: true, minInstalment: 'x,y' };
    expect(settlementCategoryRowSchema.safeParse(row).error?.issues[0]?.path).toEqual(['minInstalment']);
  });
});
