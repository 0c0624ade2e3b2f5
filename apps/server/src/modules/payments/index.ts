import { defineModule } from '../../platform/module.ts';
import { addBillCreditHook } from '../billing/api.ts';
import { billCreditHook } from './credits.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { publicBalanceRoutes } from './public.routes.ts';

/** The consumer's account, debts and payments (issue 18). */
export const paymentsModule = defineModule({
  name: 'payments',
  plugin: async (app, options) => {
    // A credited bill's debt is closed in billing's crediting transaction.
    addBillCreditHook('payments', billCreditHook);
    await app.register(paymentsRoutes, options);
    await app.register(publicBalanceRoutes, options);
  },
});
