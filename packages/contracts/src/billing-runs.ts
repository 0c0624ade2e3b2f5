import { z } from 'zod';
import { billCharges } from './billing-bill.ts';
import { idSchema } from './db.ts';
import { jobStates } from './jobs.ts';
import { isoDaySchema } from './time.ts';

/*
 * Billing runs (εκκαθάριση περιόδου): a period and a scope (all routes, some sectors or
 * some routes), a dry run that stores nothing, then the run itself as a background job.
 */

const isoDay = isoDaySchema('validation.day');

export const billingRunScopes = ['all', 'sectors', 'routes'] as const;

export const billingRunRequestSchema = z
  .object({
    year: z.number().int().min(2000).max(2999),
    period: z.number().int().min(1).max(12),
    scope: z.enum(billingRunScopes),
    /** The sectors or routes of the scope; ignored for `all`. */
    ids: z.array(idSchema).max(1000).default([]),
    issueDate: isoDay,
  })
  .superRefine((row, ctx) => {
    if (row.scope !== 'all' && row.ids.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['ids'], message: 'validation.billing_run_scope' });
    }
  });
export type BillingRunRequest = z.input<typeof billingRunRequestSchema>;

/** One line of the totals per charge (water, sewerage, VAT…), money as decimal strings. */
export const chargeTotalSchema = z.object({ charge: z.enum(billCharges), amount: z.string() });

const totalsShape = {
  bills: z.number().int(),
  charges: z.array(chargeTotalSchema),
  net: z.string(),
  vat: z.string(),
  /** The current period's charges plus the previous balance carried. */
  total: z.string(),
};

/** A consumer the run leaves out, and why (an i18n key). */
export const billingRunProblemSchema = z.object({
  consumerId: z.number().int(),
  code: z.string(),
  key: z.string(),
});

export type BillingRunProblem = z.infer<typeof billingRunProblemSchema>;

export const billingDryRunSchema = z.object({
  ...totalsShape,
  routes: z.number().int(),
  consumers: z.number().int(),
  /** Active consumers of the scope without a reading (nor an estimate) in the period. */
  withoutReading: z.number().int(),
  estimated: z.number().int(),
  corrections: z.number().int(),
  /** Readings the readouts review flagged (above average, zero, too large) or still pending. */
  flagged: z.number().int(),
  /** Route periods of the scope not yet closed (finalized) in readouts. */
  openPeriods: z.number().int(),
  /** Bills of the scope already finalized: a run leaves them as they are. */
  finalized: z.number().int(),
  problems: z.array(billingRunProblemSchema),
});
export type BillingDryRun = z.infer<typeof billingDryRunSchema>;

export const billingRunStates = ['queued', 'running', 'done', 'failed'] as const;

export const billingRunSchema = z.object({
  id: z.number().int(),
  year: z.number().int(),
  period: z.number().int(),
  scope: z.enum(billingRunScopes),
  ids: z.array(z.number().int()),
  routeCodes: z.array(z.string()),
  issueDate: z.string(),
  state: z.enum(billingRunStates),
  jobId: z.number().int().nullable(),
  progressDone: z.number().int(),
  progressTotal: z.number().int().nullable(),
  error: z.string().nullable(),
  createuser: z.string(),
  createdate: z.string(),
  /** Its bills not yet finalized. */
  open: z.number().int(),
  /** The months of its period (4 for a four-month period), to name it; null when no route has it. */
  months: z.number().int().nullable(),
  /** Its last finalizing job, while and after it works. */
  finalizing: z
    .object({
      state: z.enum(jobStates),
      done: z.number().int(),
      total: z.number().int().nullable(),
    })
    .nullable(),
  ...totalsShape,
});
export type BillingRun = z.infer<typeof billingRunSchema>;
