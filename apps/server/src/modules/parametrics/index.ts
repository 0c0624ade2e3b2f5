import { defineModule } from '../../platform/module.ts';
import { parametricsRoutes } from './parametrics.routes.ts';

/** The parametric tables (spec §2 /parametrics/{code}): protocol books so far. */
export const parametricsModule = defineModule({ name: 'parametrics', plugin: parametricsRoutes });
