import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { addBillCreditHook } from '../billing/api.ts';
import { BANK_IMPORT_JOB, bankImportJob, bankImportSettled } from './bank.import.ts';
import { bankRoutes } from './bank.routes.ts';
import { seedBankLayouts } from './bank.service.ts';
import { billCreditHook } from './credits.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { publicBalanceRoutes } from './public.routes.ts';

/** The consumer's account, debts and payments. */
export const paymentsModule = defineModule({
  name: 'payments',
  plugin: async (app, options) => {
    // A credited bill's debt is closed in billing's crediting transaction.
    addBillCreditHook('payments', billCreditHook);
    await app.register(paymentsRoutes, options);
    await app.register(publicBalanceRoutes, options);
    await app.register(bankRoutes, options);
  },
  companyDefaults: (tx, companyId, username) => seedBankLayouts(tx, companyId, username),
  // A bank's file is kept as the record of its payments: the sweep leaves the objects its rows name.
  storageColumns: [{ table: 'payments_bank_files', column: 'storage_key' }],
  jobs: { [BANK_IMPORT_JOB]: bankImportJob as JobHandler<never> },
  operations: { import: [BANK_IMPORT_JOB] },
  onJobSettled: bankImportSettled,
});
