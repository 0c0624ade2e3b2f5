import { Decimal, moneyString } from '@protocol/contracts';

/**
 * The consumer's credit (what payments left over, spec prepayments included) paying new debts: which
 * payment's credit pays which debt, oldest first on both sides. Pure, so the amounts are tested apart.
 */

/** What is left of one payment's credit. */
export interface CreditSource {
  paymentId: number;
  left: string;
}

/**
 * The credit that may still pay debts, by payment, oldest first. A return (kind 17) names no payment,
 * so the returned total comes off the oldest credit first: the same rule every time, which keeps the
 * per-payment figures consistent with the consumer's total credit.
 */
export function availableCredit(sources: readonly CreditSource[], returned: string): CreditSource[] {
  let toSkip = new Decimal(returned);
  const available: CreditSource[] = [];
  for (const source of sources) {
    const left = new Decimal(source.left);
    const skipped = Decimal.min(Decimal.max(toSkip, 0), left);
    toSkip = toSkip.minus(skipped);
    const rest = left.minus(skipped);
    if (rest.gt(0)) available.push({ paymentId: source.paymentId, left: moneyString(rest) });
  }
  return available;
}

/**
 * Spreads the credit over the debts in the order given (oldest due first): each debt takes from the
 * oldest credit until it is paid or the credit runs out; one allocation per (payment, debt) pair.
 */
export function spendCredit(
  sources: readonly CreditSource[],
  debts: readonly { id: number; remaining: string }[],
): { paymentId: number; debtId: number; amount: string }[] {
  const pool = sources.map((s) => ({ paymentId: s.paymentId, left: new Decimal(s.left) }));
  const spent: { paymentId: number; debtId: number; amount: string }[] = [];
  let next = 0;
  for (const debt of debts) {
    let owed = new Decimal(debt.remaining);
    while (owed.gt(0) && next < pool.length) {
      const source = pool[next];
      if (!source) break;
      const take = Decimal.min(owed, source.left);
      if (take.gt(0)) spent.push({ paymentId: source.paymentId, debtId: debt.id, amount: moneyString(take) });
      owed = owed.minus(take);
      source.left = source.left.minus(take);
      if (source.left.lte(0)) next++;
    }
    if (next >= pool.length) break;
  }
  return spent;
}
