import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { billingRoutes } from './billing.routes.ts';
import { seedBillingDemo } from './demo.ts';
import { runsRoutes } from './runs.routes.ts';
import { BILLING_RUN_JOB, billingRunJob, runSettled } from './runs.service.ts';

/** Water billing (issue 17): pricing and discount policies, the bill computation, the bills and the runs. */
export const billingModule = defineModule({
  name: 'billing',
  plugin: async (app, options) => {
    await app.register(billingRoutes, options);
    await app.register(runsRoutes, options);
  },
  demoData: (tx, { companyId }) => seedBillingDemo(tx, companyId),
  // A billing run bills route by route in the background; when it ends its routes are free again.
  jobs: { [BILLING_RUN_JOB]: billingRunJob as JobHandler<never> },
  onJobSettled: runSettled,
});
