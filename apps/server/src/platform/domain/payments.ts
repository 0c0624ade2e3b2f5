import { Decimal, moneyString } from '@protocol/contracts';

/** The account's rules that only the server runs: overdue interest and how a payment spreads over debts. */

export interface InterestTerms {
  /** Yearly rate, percent (e.g. "7.3"). */
  ratePercent: string;
  /** Days after the due date that bear no interest. */
  graceDays: number;
}

const DAY = 86_400_000;
const dayNumber = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY);

/**
 * Overdue interest of one debt up to `asOf`, day by day: each day d after the due date and past the
 * grace days bears outstanding(d) × rate / 100 / 365, where outstanding(d) is the amount less what was
 * paid before d (a payment on day d stops that day's interest). Grace days bear nothing even when
 * paid late. Summed exactly, rounded half-up to the cent once.
 */
export function overdueInterest(
  debt: { amount: string; dueDate: string; payments: readonly { date: string; amount: string }[] },
  terms: InterestTerms,
  asOf: string,
): string {
  const first = dayNumber(debt.dueDate) + terms.graceDays + 1;
  const last = dayNumber(asOf);
  if (last < first) return '0.00';
  const daily = new Decimal(terms.ratePercent).div(100).div(365);
  const payments = [...debt.payments].sort((a, b) => a.date.localeCompare(b.date));
  let outstanding = new Decimal(debt.amount);
  let total = new Decimal(0);
  let day = first;
  for (const payment of payments) {
    const paidOn = dayNumber(payment.date);
    if (paidOn > day) {
      const until = Math.min(paidOn, last + 1);
      if (until > day) total = total.plus(Decimal.max(outstanding, 0).times(until - day));
      day = Math.max(day, until);
    }
    outstanding = outstanding.minus(payment.amount);
  }
  if (last + 1 > day) total = total.plus(Decimal.max(outstanding, 0).times(last + 1 - day));
  return moneyString(total.times(daily));
}

/**
 * Spreads an amount over debts in the order given (the oldest first, or the cashier's): each takes
 * what remains of it until the amount runs out. What is left over is the consumer's credit.
 */
export function allocate(
  debts: readonly { id: number; remaining: string }[],
  amount: string,
): { allocations: { debtId: number; amount: string }[]; left: string } {
  let left = new Decimal(amount);
  const allocations: { debtId: number; amount: string }[] = [];
  for (const debt of debts) {
    if (left.lte(0)) break;
    const take = Decimal.min(left, debt.remaining);
    if (take.lte(0)) continue;
    allocations.push({ debtId: debt.id, amount: moneyString(take) });
    left = left.minus(take);
  }
  return { allocations, left: moneyString(left) };
}
