import { type BillingRun, type Language, periodName } from '@protocol/contracts';

/** A run's period as the utility names it ("Α΄ τετράμηνο 2026"); "1/2026" when its length is unknown. */
export const runPeriodLabel = (run: Pick<BillingRun, 'year' | 'period' | 'months'>, language: Language) =>
  run.months === null ? `${run.period}/${run.year}` : periodName(run.year, run.period, run.months, language);
