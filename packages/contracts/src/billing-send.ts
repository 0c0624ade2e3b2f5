import { z } from 'zod';
import { idSchema } from './db.ts';

/*
 * Sending the bills (spec §3 send status 0 hold → 1 send → 2 sent → 9 completed): finalized
 * bills are e-mailed with their PDF to consumers with an address, the others are marked for print
 * and printed in one merged PDF per run and route; each sending is a background job (a dispatch).
 */

export const billDispatchKinds = ['email', 'print'] as const;
export const billDispatchStates = ['queued', 'running', 'done', 'failed'] as const;

/** POST /api/billing/dispatches/email: a run, one route of it, or chosen bills. */
export const emailBillsSchema = z
  .object({
    runId: idSchema.optional(),
    routeId: idSchema.optional(),
    billIds: z.array(idSchema).max(10_000).optional(),
    /**
     * Also mail again the scope's uncertain bills (marked, never known accepted): only once the
     * operator has checked that their mail did not arrive.
     */
    uncertain: z.boolean().default(false),
  })
  .superRefine((row, ctx) => {
    if (row.routeId !== undefined && row.runId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['runId'], message: 'validation.billing_send_scope' });
    } else if (row.runId === undefined && (row.billIds ?? []).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['billIds'], message: 'validation.billing_send_scope' });
    }
  });
export type EmailBillsRequest = z.input<typeof emailBillsSchema>;

/**
 * POST /api/billing/dispatches/print: the merged PDF of a run's route (its bills marked for print),
 * or of chosen finalized bills on hold or marked for print (a corrected bill, bills picked on the list).
 */
export const printBillsSchema = z
  .object({
    runId: idSchema.optional(),
    routeId: idSchema.optional(),
    billIds: z.array(idSchema).max(10_000).optional(),
  })
  .superRefine((row, ctx) => {
    const chosen = (row.billIds ?? []).length > 0;
    const route = row.runId !== undefined && row.routeId !== undefined;
    if (chosen === route || (chosen && (row.runId !== undefined || row.routeId !== undefined))) {
      ctx.addIssue({ code: 'custom', path: ['billIds'], message: 'validation.billing_print_scope' });
    }
  });
export type PrintBillsRequest = z.input<typeof printBillsSchema>;

export const billDispatchSchema = z.object({
  id: z.number().int(),
  kind: z.enum(billDispatchKinds),
  runId: z.number().int().nullable(),
  routeId: z.number().int().nullable(),
  routeCode: z.string().nullable(),
  state: z.enum(billDispatchStates),
  jobId: z.number().int().nullable(),
  progressDone: z.number().int(),
  progressTotal: z.number().int().nullable(),
  /** E-mails the mail server accepted, or bills in the printed file. */
  bills: z.number().int(),
  /** E-mails the mail server refused: those bills were marked for print. */
  refused: z.number().int(),
  /** The printed file's size; null until it is stored (and for e-mail batches). */
  fileSize: z.number().int().nullable(),
  /** Its bills sent (mailed or printed) and not yet completed: what closing the sending completes. */
  sentBills: z.number().int(),
  error: z.string().nullable(),
  createuser: z.string(),
  createdate: z.string(),
});
export type BillDispatch = z.infer<typeof billDispatchSchema>;

/** What a request queued: bills to be mailed, bills marked for print. */
export const billDispatchStartedSchema = z.object({
  dispatch: billDispatchSchema,
  email: z.number().int(),
  print: z.number().int(),
});
export type BillDispatchStarted = z.infer<typeof billDispatchStartedSchema>;

/** A run's route with its finalized bills counted per send status. */
export const routeSendCountsSchema = z.object({
  routeId: z.number().int(),
  code: z.string(),
  description: z.string(),
  finalized: z.number().int(),
  hold: z.number().int(),
  /** On hold with an e-mail address: what "send by e-mail" would mail. */
  holdWithEmail: z.number().int(),
  toEmail: z.number().int(),
  toPrint: z.number().int(),
  /** Mailed to the server without an answer (a crash mid-call): never mailed again by itself. */
  uncertain: z.number().int(),
  sent: z.number().int(),
  completed: z.number().int(),
});
export type RouteSendCounts = z.infer<typeof routeSendCountsSchema>;

/** GET /api/billing/runs/:id/sending: the run's routes with their counts and its sendings. */
export const runSendingSchema = z.object({
  routes: z.array(routeSendCountsSchema),
  dispatches: z.array(billDispatchSchema),
});
export type RunSending = z.infer<typeof runSendingSchema>;

/** GET /api/billing/dispatches: the sendings of chosen bills (outside any run), newest first. */
export const billDispatchListSchema = z.object({ dispatches: z.array(billDispatchSchema) });
export type BillDispatchList = z.infer<typeof billDispatchListSchema>;
