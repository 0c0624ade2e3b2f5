import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { billingRoutes } from './billing.routes.ts';
import { emailJob, printJob } from './bills.send.jobs.ts';
import { sendRoutes } from './bills.send.routes.ts';
import { BILL_EMAIL_JOB, BILL_PRINT_JOB, dispatchSettled } from './bills.send.ts';
import { seedBillingDemo } from './demo.ts';
import { runsRoutes } from './runs.routes.ts';
import {
  BILLING_DRY_RUN_JOB,
  BILLING_RUN_JOB,
  billingRunJob,
  dryRunJob,
  finalizeRunJob,
  runSettled,
} from './runs.service.ts';
import { BILLING_FINALIZE_JOB } from './runs.view.ts';

/** Water billing: pricing and discount policies, the bill computation, the bills, the runs and the sending. */
export const billingModule = defineModule({
  name: 'billing',
  plugin: async (app, options) => {
    await app.register(billingRoutes, options);
    await app.register(runsRoutes, options);
    await app.register(sendRoutes, options);
  },
  demoData: (tx, { companyId }) => seedBillingDemo(tx, companyId),
  // A billing run bills route by route in the background; when it ends its routes are free again.
  // Its dry run and its finalizing work over the same thousands of bills, as jobs too, and bills
  // are e-mailed and printed by jobs (bills.send.jobs.ts).
  jobs: {
    [BILLING_RUN_JOB]: billingRunJob as JobHandler<never>,
    [BILLING_DRY_RUN_JOB]: dryRunJob as JobHandler<never>,
    [BILLING_FINALIZE_JOB]: finalizeRunJob as JobHandler<never>,
    [BILL_EMAIL_JOB]: emailJob as JobHandler<never>,
    [BILL_PRINT_JOB]: printJob as JobHandler<never>,
  },
  // What the operators' dashboards show in progress (README "Metrics").
  operations: { billing_run: [BILLING_RUN_JOB], bill_dispatch: [BILL_EMAIL_JOB, BILL_PRINT_JOB] },
  onJobSettled: async (tx, job) => {
    await runSettled(tx, job);
    await dispatchSettled(tx, job);
  },
  // The merged PDFs of the print sendings.
  storageColumns: [{ table: 'billing_dispatches', column: 'file_key' }],
  // The water service's card: consumers, open debts, the newest run, readings left.
});
