import {
  Decimal,
  moneyString,
  type Plan,
  type PlanLine,
  roundCents,
  type SettlementCategory,
  settlementAmounts,
  settlementErrors,
} from '@protocol/contracts';

/** A field error of the plan, as the server answers it (400) and the screen shows it. */
export interface PlanError {
  field: string;
  key: string;
  params: Record<string, string | number>;
}

export interface PlanInput {
  /** What remains of each debt settled. */
  debts: readonly string[];
  /** Their overdue interest, added unless the category waives it. */
  interest: string;
  category: Pick<
    SettlementCategory,
    | 'minInstalment'
    | 'maxInstalment'
    | 'maxInstalments'
    | 'minDownPaymentPercent'
    | 'intervalDays'
    | 'waiveInterest'
    | 'discountPercent'
  >;
  /** Discount asked (%), at most the category's. */
  discountPercent: string;
  downPayment: string;
  instalments: number;
  /** The settlement's day (YYYY-MM-DD, Athens): the down payment is due on it. */
  date: string;
}

/** The day `months` after an ISO day, on the same day of the month or the month's last (31/1 → 28/2). */
export function addMonthsToDay(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return isoDay(Date.UTC(year, month, Math.min(d, last)));
}

export function addDaysToDay(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return isoDay(Date.UTC(y, m - 1, d + days));
}

function isoDay(utc: number): string {
  return new Date(utc).toISOString().slice(0, 10);
}

/**
 * The plan of a settlement: total = debts (+ interest unless waived) − discount (half-up to the
 * cent); the down payment (at least the category's % of the total, less than it); the rest in N
 * instalments of the rest / N cut to the cent, the cents left over on the last, so the lines add up
 * to the total exactly. Every instalment must lie within the category's min and max.
 */
export function settlementPlan(input: PlanInput): { plan: Plan; errors: PlanError[] } {
  const { category } = input;
  const errors: PlanError[] = [];
  const { debtsTotal, interest, discount, total, minDown } = settlementAmounts(
    input.debts,
    input.interest,
    input.discountPercent,
    category,
  );
  if (new Decimal(input.discountPercent).gt(category.discountPercent)) {
    errors.push({
      field: 'discountPercent',
      key: settlementErrors.discountTooHigh,
      params: { max: category.discountPercent },
    });
  }
  const downPayment = roundCents(input.downPayment);
  if (downPayment.lt(minDown)) {
    errors.push({
      field: 'downPayment',
      key: settlementErrors.downPaymentTooLow,
      params: { min: moneyString(minDown) },
    });
  } else if (downPayment.gte(total)) {
    errors.push({
      field: 'downPayment',
      key: settlementErrors.downPaymentTooHigh,
      params: { total: moneyString(total) },
    });
  }
  const n = input.instalments;
  if (n > category.maxInstalments) {
    errors.push({
      field: 'instalments',
      key: settlementErrors.tooManyInstalments,
      params: { max: category.maxInstalments },
    });
  }
  const rest = Decimal.max(total.minus(downPayment), 0);
  const base = rest.div(n).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const last = rest.minus(base.times(n - 1));
  const lines: PlanLine[] = [{ number: 0, dueDate: input.date, amount: moneyString(downPayment) }];
  for (let k = 1; k <= n; k++) {
    lines.push({
      number: k,
      dueDate:
        category.intervalDays === 0
          ? addMonthsToDay(input.date, k)
          : addDaysToDay(input.date, k * category.intervalDays),
      amount: moneyString(k === n ? last : base),
    });
  }
  const outside = [base, last].some((a) => a.lt(category.minInstalment) || a.gt(category.maxInstalment));
  if (outside && errors.every((e) => e.field !== 'downPayment')) {
    errors.push({
      field: 'instalments',
      key: settlementErrors.instalmentOutOfRange,
      params: { min: category.minInstalment, max: category.maxInstalment },
    });
  }
  return {
    plan: {
      debtsTotal: moneyString(debtsTotal),
      interest: moneyString(interest),
      discount: moneyString(discount),
      total: moneyString(total),
      downPayment: moneyString(downPayment),
      lines,
    },
    errors,
  };
}

/**
 * The cancellation rule: an instalment unpaid more than `toleranceDays` after its due date is
 * missed; a settlement with more missed instalments than `toleranceInstalments` is cancelled.
 */
export function missedInstalments(
  instalments: readonly { dueDate: string; paidInFull: boolean }[],
  tolerance: { toleranceDays: number },
  today: string,
): number {
  return instalments.filter((i) => !i.paidInFull && addDaysToDay(i.dueDate, tolerance.toleranceDays) < today)
    .length;
}

export function shouldCancel(
  instalments: readonly { dueDate: string; paidInFull: boolean }[],
  tolerance: { toleranceDays: number; toleranceInstalments: number },
  today: string,
): boolean {
  return missedInstalments(instalments, tolerance, today) > tolerance.toleranceInstalments;
}
