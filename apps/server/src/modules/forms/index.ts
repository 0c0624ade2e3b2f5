import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { seedDemoForms } from './forms.demo.ts';
import { formsRoutes } from './forms.routes.ts';
import { publicFormsRoutes } from './public.routes.ts';
import { submissionSearchSource } from './search.ts';
import { SUBMISSION_JOB, submissionJob } from './submission.job.ts';

/** Online forms: the builder, the citizens' public forms and the review desk. */
export const formsModule = defineModule({
  name: 'forms',
  plugin: async (app, options) => {
    await app.register(formsRoutes, options);
    await app.register(publicFormsRoutes, options);
  },
  demoData: seedDemoForms,
  // A public submission's PDF, its files on the registered document and its e-mails, after its commit.
  jobs: { [SUBMISSION_JOB]: submissionJob as JobHandler<never> },
  references: [{ target: 'traders', table: 'form_submissions', column: 'trader_id' }],
  storageColumns: [{ table: 'form_uploads', column: 'storage_key' }],
  search: [submissionSearchSource],
});
