import { describe, expect, it } from 'vitest';
import { allocate, overdueInterest } from './payments.ts';

describe('overdue interest, day by day', () => {
  // 7.3 % a year is 0.02 % a day: 100.00 bears 0.02 € a day.
  const terms = { ratePercent: '7.3', graceDays: 0 };

  it('charges each day after the due date on the whole amount', () => {
    // 1 Feb … 2 Mar 2026: 28 + 2 = 30 days × 0.02 = 0.60
    expect(
      overdueInterest({ amount: '100.00', dueDate: '2026-01-31', payments: [] }, terms, '2026-03-02'),
    ).toBe('0.60');
  });

  it('charges nothing up to the due date nor within the grace days', () => {
    expect(
      overdueInterest({ amount: '100.00', dueDate: '2026-01-31', payments: [] }, terms, '2026-01-31'),
    ).toBe('0.00');
    const grace = { ratePercent: '7.3', graceDays: 10 };
    expect(
      overdueInterest({ amount: '100.00', dueDate: '2026-01-31', payments: [] }, grace, '2026-02-10'),
    ).toBe('0.00');
    // 11 … 15 Feb: 5 days × 0.02
    expect(
      overdueInterest({ amount: '100.00', dueDate: '2026-01-31', payments: [] }, grace, '2026-02-15'),
    ).toBe('0.10');
  });

  it('counts a part payment from its day on', () => {
    const debt = {
      amount: '100.00',
      dueDate: '2026-01-31',
      payments: [{ date: '2026-02-11', amount: '50.00' }],
    };
    // 1 … 10 Feb on 100 (10 × 0.02 = 0.20), 11 Feb … 2 Mar on 50 (20 × 0.01 = 0.20)
    expect(overdueInterest(debt, terms, '2026-03-02')).toBe('0.40');
    // with 5 grace days: 6 … 10 Feb on 100 (0.10) + 0.20
    expect(overdueInterest(debt, { ratePercent: '7.3', graceDays: 5 }, '2026-03-02')).toBe('0.30');
  });

  it('stops on the day the debt is paid in full and ignores payments before the due date', () => {
    const paid = {
      amount: '100.00',
      dueDate: '2026-01-31',
      payments: [
        { date: '2026-01-10', amount: '40.00' },
        { date: '2026-02-06', amount: '60.00' },
      ],
    };
    // 1 … 5 Feb on 60: 5 × 0.012 = 0.06; nothing after
    expect(overdueInterest(paid, terms, '2026-12-31')).toBe('0.06');
  });

  it('rounds half up to the cent once, not per day', () => {
    // 33.33 × 0.08 / 365 × 45 days = 0.328734… → 0.33
    expect(
      overdueInterest(
        { amount: '33.33', dueDate: '2026-03-01', payments: [] },
        { ratePercent: '8', graceDays: 0 },
        '2026-04-15',
      ),
    ).toBe('0.33');
  });
});

describe('allocation', () => {
  const debts = [
    { id: 1, remaining: '30.00' },
    { id: 2, remaining: '45.50' },
    { id: 3, remaining: '20.00' },
  ];

  it('pays the debts in order, the last one partly', () => {
    expect(allocate(debts, '50.00')).toEqual({
      allocations: [
        { debtId: 1, amount: '30.00' },
        { debtId: 2, amount: '20.00' },
      ],
      left: '0.00',
    });
  });

  it('leaves the surplus as credit and skips paid debts', () => {
    expect(allocate([{ id: 9, remaining: '0.00' }, ...debts], '100.00')).toEqual({
      allocations: [
        { debtId: 1, amount: '30.00' },
        { debtId: 2, amount: '45.50' },
        { debtId: 3, amount: '20.00' },
      ],
      left: '4.50',
    });
  });
});
