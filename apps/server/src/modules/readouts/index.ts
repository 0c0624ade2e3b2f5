import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { dropReadingsFile, IMPORT_JOB, importJob } from './import.service.ts';
import { readoutsRoutes } from './readouts.routes.ts';
import { smartvilleRoutes } from './smartville.routes.ts';
import { SMARTVILLE_JOB, smartvilleJob } from './smartville.ts';

/** Readouts: reading periods of the routes, entry, checks, review, imports and the period close. */
export const readoutsModule = defineModule({
  name: 'readouts',
  plugin: async (app, options) => {
    await app.register(readoutsRoutes, options);
    await app.register(smartvilleRoutes, options);
  },
  // Imports of readings files run in the background (the platform's pipeline); the uploaded file goes when the job ends.
  jobs: {
    [IMPORT_JOB]: importJob as JobHandler<never>,
    [SMARTVILLE_JOB]: smartvilleJob as JobHandler<never>,
  },
  operations: { import: [IMPORT_JOB, SMARTVILLE_JOB] },
  onJobSettled: dropReadingsFile,
  storageColumns: [{ table: 'readout_import_files', column: 'storage_key' }],
});
