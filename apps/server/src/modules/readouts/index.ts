import { defineModule } from '../../platform/module.ts';
import { readoutsRoutes } from './readouts.routes.ts';

/** Readouts (issue 16): reading periods of the routes, entry, checks, review and the period close. */
export const readoutsModule = defineModule({
  name: 'readouts',
  plugin: async (app, options) => {
    await app.register(readoutsRoutes, options);
  },
});
