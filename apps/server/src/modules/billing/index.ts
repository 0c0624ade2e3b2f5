import { defineModule } from '../../platform/module.ts';
import { billingRoutes } from './billing.routes.ts';
import { seedBillingDemo } from './demo.ts';

/** Water billing (issue 17): pricing and discount policies, the bill computation and the stored bills. */
export const billingModule = defineModule({
  name: 'billing',
  plugin: billingRoutes,
  demoData: (tx, { companyId }) => seedBillingDemo(tx, companyId),
});
