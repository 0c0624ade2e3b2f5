import { z } from 'zod';
import type { EntityCatalog } from './list.ts';

/** queued → running → succeeded | failed; a queued job may be cancelled. */
export const jobStates = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof jobStates)[number];

/** A background job as its owner sees it (GET /api/jobs, /api/jobs/{id}). */
export const jobSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  state: z.enum(jobStates),
  companyId: z.number().int().nullable(),
  attempts: z.number().int(),
  progressDone: z.number().int(),
  progressTotal: z.number().int().nullable(),
  progressMessage: z.string().nullable(),
  result: z.unknown().nullable(),
  /** Why it failed: a catalog key, translated with `errorParams` where it is shown. */
  error: z.string().nullable(),
  errorParams: z.record(z.string(), z.union([z.string(), z.number()])),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;

/** The list of one's own jobs (GET /api/jobs), newest first. */
export const jobsCatalog: EntityCatalog = {
  entity: 'jobs',
  titleKey: 'jobs.title',
  defaultSort: { field: 'createdAt', desc: true },
  fields: [
    {
      id: 'kind',
      type: 'text',
      labelKey: 'jobs.field.kind',
      valueLabelPrefix: 'jobs.kind',
      sortable: true,
      filters: ['eq', 'contains'],
      exportable: true,
      searchable: true,
    },
    {
      id: 'state',
      type: 'enum',
      labelKey: 'jobs.field.state',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: jobStates.map((state) => ({ value: state, labelKey: `jobs.state.${state}` })),
    },
    {
      id: 'progressDone',
      type: 'number',
      labelKey: 'jobs.field.progress',
      sortable: false,
      filters: [],
      exportable: true,
    },
    {
      // The catalog key with its params: the screen words it in the reader's language (jobErrorText).
      id: 'error',
      type: 'text',
      labelKey: 'jobs.field.error',
      sortable: false,
      filters: [],
      exportable: false,
      wrap: true,
      width: 320,
    },
    {
      id: 'createdAt',
      type: 'date',
      labelKey: 'jobs.field.createdAt',
      sortable: true,
      filters: ['gte', 'lte'],
      exportable: true,
    },
    {
      id: 'finishedAt',
      type: 'date',
      labelKey: 'jobs.field.finishedAt',
      sortable: true,
      filters: [],
      exportable: true,
    },
  ],
};
