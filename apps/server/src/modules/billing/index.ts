import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { billingRoutes } from './billing.routes.ts';
import { seedBillingDemo } from './demo.ts';
import { runsRoutes } from './runs.routes.ts';
import {
  BILLING_DRY_RUN_JOB,
  BILLING_FINALIZE_JOB,
  BILLING_RUN_JOB,
  billingRunJob,
  dryRunJob,
  finalizeRunJob,
  runSettled,
} from './runs.service.ts';

/** Water billing (issue 17): pricing and discount policies, the bill computation, the bills and the runs. */
export const billingModule = defineModule({
  name: 'billing',
  plugin: async (app, options) => {
    await app.register(billingRoutes, options);
    await app.register(runsRoutes, options);
  },
  demoData: (tx, { companyId }) => seedBillingDemo(tx, companyId),
  // A billing run bills route by route in the background; when it ends its routes are free again.
  // Its dry run and its finalizing work over the same thousands of bills, as jobs too.
  jobs: {
    [BILLING_RUN_JOB]: billingRunJob as JobHandler<never>,
    [BILLING_DRY_RUN_JOB]: dryRunJob as JobHandler<never>,
    [BILLING_FINALIZE_JOB]: finalizeRunJob as JobHandler<never>,
  },
  onJobSettled: runSettled,
});
