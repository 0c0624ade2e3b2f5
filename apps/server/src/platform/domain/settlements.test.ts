import { settlementErrors } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import {
  addMonthsToDay,
  missedInstalments,
  type PlanInput,
  settlementPlan,
  shouldCancel,
} from './settlements.ts';

const category: PlanInput['category'] = {
  minInstalment: '20.00',
  maxInstalment: '500.00',
  maxInstalments: 12,
  minDownPaymentPercent: '10.00',
  intervalDays: 0,
  waiveInterest: false,
  discountPercent: '5.00',
};

const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  debts: ['120.35', '98.10', '31.56'],
  interest: '0.00',
  category,
  discountPercent: '0',
  downPayment: '50.00',
  instalments: 6,
  date: '2026-01-31',
  ...over,
});

describe('settlementPlan', () => {
  it('splits three debts into six instalments, the spare cents on the last', () => {
    // 120.35 + 98.10 + 31.56 = 250.01; minus 50.00 down = 200.01; 200.01 / 6 = 33.335 → 33.33 × 5,
    // last 200.01 − 166.65 = 33.36.
    const { plan, errors } = settlementPlan(input());
    expect(errors).toEqual([]);
    expect(plan.debtsTotal).toBe('250.01');
    expect(plan.total).toBe('250.01');
    expect(plan.lines.map((l) => l.amount)).toEqual([
      '50.00',
      '33.33',
      '33.33',
      '33.33',
      '33.33',
      '33.33',
      '33.36',
    ]);
    // Monthly from 31 January: the month's last day when it is shorter.
    expect(plan.lines.map((l) => l.dueDate)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
    ]);
  });

  it('adds the interest unless waived, takes the discount half-up, and the lines add up to the total', () => {
    // 250.01 + 12.47 = 262.48; 5% = 13.124 → 13.12; total 249.36; down 30.00; rest 219.36 / 4 = 54.84.
    const { plan, errors } = settlementPlan(
      input({ interest: '12.47', discountPercent: '5', downPayment: '30', instalments: 4 }),
    );
    expect(errors).toEqual([]);
    expect(plan).toMatchObject({
      interest: '12.47',
      discount: '13.12',
      total: '249.36',
      downPayment: '30.00',
    });
    expect(plan.lines.slice(1).map((l) => l.amount)).toEqual(['54.84', '54.84', '54.84', '54.84']);
    const waived = settlementPlan(
      input({ interest: '12.47', category: { ...category, waiveInterest: true } }),
    );
    expect(waived.plan.interest).toBe('0.00');
    expect(waived.plan.total).toBe('250.01');
  });

  it('spaces instalments by the category days when not monthly', () => {
    const { plan } = settlementPlan(
      input({ category: { ...category, intervalDays: 15 }, instalments: 2, downPayment: '60' }),
    );
    expect(plan.lines.map((l) => l.dueDate)).toEqual(['2026-01-31', '2026-02-15', '2026-03-02']);
    // 250.01 − 60 = 190.01 → 95.00 and 95.01.
    expect(plan.lines.map((l) => l.amount)).toEqual(['60.00', '95.00', '95.01']);
  });

  it("refuses instalments outside the category's min and max with the spec's message", () => {
    // 200.01 / 12 = 16.67 < 20.00.
    const small = settlementPlan(input({ instalments: 12 }));
    expect(small.errors).toEqual([
      {
        field: 'instalments',
        key: settlementErrors.instalmentOutOfRange,
        params: { min: '20.00', max: '500.00' },
      },
    ]);
    // 200.01 in one instalment is within; with a 100.00 max it is not.
    expect(settlementPlan(input({ instalments: 1 })).errors).toEqual([]);
    const big = settlementPlan(input({ instalments: 1, category: { ...category, maxInstalment: '100.00' } }));
    expect(big.errors.map((e) => e.key)).toEqual([settlementErrors.instalmentOutOfRange]);
  });

  it('bounds the down payment, the number of instalments and the discount', () => {
    // 10% of 250.01 = 25.001 → 25.00.
    expect(settlementPlan(input({ downPayment: '25.00' })).errors).toEqual([]);
    expect(settlementPlan(input({ downPayment: '24.99' })).errors).toEqual([
      { field: 'downPayment', key: settlementErrors.downPaymentTooLow, params: { min: '25.00' } },
    ]);
    expect(settlementPlan(input({ downPayment: '250.01' })).errors[0]?.key).toBe(
      settlementErrors.downPaymentTooHigh,
    );
    expect(settlementPlan(input({ instalments: 13 })).errors.map((e) => e.key)).toContain(
      settlementErrors.tooManyInstalments,
    );
    expect(settlementPlan(input({ discountPercent: '5.01' })).errors[0]?.key).toBe(
      settlementErrors.discountTooHigh,
    );
  });
});

describe('the cancellation rule', () => {
  const lines = [
    { dueDate: '2026-02-28', paidInFull: true },
    { dueDate: '2026-03-31', paidInFull: false },
    { dueDate: '2026-04-30', paidInFull: false },
  ];
  it('counts an instalment missed only after the days tolerated', () => {
    expect(missedInstalments(lines, { toleranceDays: 30 }, '2026-04-30')).toBe(0);
    expect(missedInstalments(lines, { toleranceDays: 30 }, '2026-05-01')).toBe(1);
    expect(missedInstalments(lines, { toleranceDays: 0 }, '2026-05-01')).toBe(2);
  });
  it('cancels with more missed instalments than tolerated', () => {
    const tolerance = { toleranceDays: 30, toleranceInstalments: 1 };
    expect(shouldCancel(lines, tolerance, '2026-05-30')).toBe(false);
    expect(shouldCancel(lines, tolerance, '2026-05-31')).toBe(true);
    expect(shouldCancel(lines, { ...tolerance, toleranceInstalments: 2 }, '2026-12-31')).toBe(false);
  });
});

describe('due days', () => {
  it('adds months keeping the day or the last of the month', () => {
    expect(addMonthsToDay('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonthsToDay('2026-11-15', 3)).toBe('2027-02-15');
  });
});
