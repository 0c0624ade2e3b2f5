import { describe, expect, it } from 'vitest';
import {
  defaultSettlementCategories,
  settlementAmounts,
  settlementCategoryRowSchema,
} from './settlements.ts';

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

describe('settlement amounts (the plan and the screen alike)', () => {
  const category = { waiveInterest: false, minDownPaymentPercent: '10.00' };
  const cents = (a: ReturnType<typeof settlementAmounts>) =>
    [a.debtsTotal, a.interest, a.discount, a.total, a.minDown].map((v) => v.toFixed(2));
  it('adds the interest, takes the discount and the least down payment half up', () => {
    // 120.35 + 98.10 = 218.45, + 1.60 = 220.05; 5% = 11.0025 → 11.00; 209.05 × 10% = 20.905 → 20.91
    expect(cents(settlementAmounts(['120.35', '98.10'], '1.60', '5', category))).toEqual([
      '218.45',
      '1.60',
      '11.00',
      '209.05',
      '20.91',
    ]);
  });
  it('waives the interest when the category says so; 100.01 × 10% = 10.001 → 10.00', () => {
    expect(cents(settlementAmounts(['100.01'], '3.00', '0', { ...category, waiveInterest: true }))).toEqual([
      '100.01',
      '0.00',
      '0.00',
      '100.01',
      '10.00',
    ]);
  });
});
