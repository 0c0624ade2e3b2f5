import { z } from 'zod';

/** A bad row of the file: its line (the header is line 1), the column's header and why, translated. */
export const importErrorSchema = z.object({ line: z.number().int(), column: z.string(), reason: z.string() });
export type ImportError = z.infer<typeof importErrorSchema>;

/**
 * What every import of the platform's pipeline answers when its job ends (its `result`), whichever
 * module's it is; each import adds its own counts (`importReportSchema.extend`).
 */
export const importReportSchema = z.object({
  dryRun: z.boolean(),
  /** Rows read from the file. */
  rows: z.number().int(),
  /** Every bad row: a dry run or an import with one writes nothing. */
  errors: z.array(importErrorSchema),
  /** Rows written, in whole chunks. */
  applied: z.number().int(),
  /** Stopped by its owner between two chunks. */
  aborted: z.boolean(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** POST /api/imports/{job}/abort stops an import between chunks; GET …/result is its result file. */
export const importAbortPath = (jobId: number) => `/api/imports/${jobId}/abort`;
export const importResultPath = (jobId: number) => `/api/imports/${jobId}/result`;

/** A line of a per-line import that is not a plain success: its level and why, translated. */
export const importLineNoteSchema = z.object({
  line: z.number().int(),
  level: z.enum(['warning', 'failed']),
  message: z.string(),
});

/**
 * An import whose bad lines are recorded and skipped (the others written): its lines by level, and
 * every line that is not a plain success (the bad rows, and the written rows' warnings and failures).
 */
export const perLineReportSchema = importReportSchema.extend({
  success: z.number().int(),
  warnings: z.number().int(),
  failed: z.number().int(),
  lines: z.array(importLineNoteSchema),
});
export type PerLineReport = z.infer<typeof perLineReportSchema>;
