import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { consumersRoutes } from './consumers.routes.ts';
import { hasConsumers } from './consumers.service.ts';
import { seedWaterParametrics } from './demo.ts';
import { importRoutes } from './import.routes.ts';
import { dropRegisterFile, IMPORT_JOB, importJob } from './import.service.ts';
import { metersRoutes } from './meters.routes.ts';
import { waterParametricsRoutes } from './parametrics.routes.ts';
import { consumerSearchSource } from './search.ts';

/** The water service: parametric tables, the encoding code, consumers and their meters. */
export const waterModule = defineModule({
  name: 'water',
  plugin: async (app, options) => {
    await app.register(waterParametricsRoutes(hasConsumers), options);
    await app.register(consumersRoutes, options);
    await app.register(metersRoutes, options);
    await app.register(importRoutes, options);
  },
  demoData: (tx, { companyId }) => seedWaterParametrics(tx, companyId),
  search: [consumerSearchSource],
  // Moving a register in runs in the background; its uploaded file goes when the job ends.
  jobs: { [IMPORT_JOB]: importJob as JobHandler<never> },
  operations: { import: [IMPORT_JOB] },
  onJobSettled: dropRegisterFile,
  storageColumns: [{ table: 'water_import_files', column: 'storage_key' }],
  // A trader merge moves the consumers' owners, liable parties and receivers to the survivor.
  references: [
    { target: 'traders', table: 'water_consumers', column: 'owner_id' },
    { target: 'traders', table: 'water_consumers', column: 'liable_id' },
    { target: 'traders', table: 'water_consumers', column: 'receiver_id' },
  ],
});
