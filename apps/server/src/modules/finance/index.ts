import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JobHandler } from '../../platform/jobs/jobs.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { defineModule } from '../../platform/module.ts';
import { ACCOUNTS_IMPORT_JOB, dropAccountsFile, importAccountsJob } from './accounts.import.ts';
import { certificationsRoutes } from './certifications.routes.ts';
import { documentsRoutes } from './documents.routes.ts';
import { seedFinanceDefaults, seedFinanceDemo } from './finance.defaults.ts';
import { masterDataRoutes } from './master-data.routes.ts';
import { transformationRoutes } from './transformation.routes.ts';

const plugin: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  await app.register(masterDataRoutes, options);
  await app.register(documentsRoutes, options);
  await app.register(transformationRoutes, options);
  await app.register(certificationsRoutes, options);
};

/**
 * Finance: accounting plan, services, warehouses and items, document series, commercial
 * documents numbered gapless per series and year.
 */
export const financeModule = defineModule({
  name: 'finance',
  plugin,
  companyDefaults: seedFinanceDefaults,
  demoData: seedFinanceDemo,
  // The accounting plan's import runs in the background; its uploaded file goes when the job ends.
  jobs: { [ACCOUNTS_IMPORT_JOB]: importAccountsJob as JobHandler<never> },
  operations: { import: [ACCOUNTS_IMPORT_JOB] },
  onJobSettled: dropAccountsFile,
  storageColumns: [{ table: 'finance_import_files', column: 'storage_key' }],
  references: [{ target: 'traders', table: 'finance_documents', column: 'trader_id' }],
  // This month's finalized documents and those still unsent to myDATA.
});
