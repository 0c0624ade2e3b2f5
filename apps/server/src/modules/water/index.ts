import { defineModule } from '../../platform/module.ts';
import { seedWaterParametrics } from './demo.ts';
import { waterParametricsRoutes } from './parametrics.routes.ts';

/** The water service (issue 15): parametric tables, the encoding code, consumers and their meters. */
export const waterModule = defineModule({
  name: 'water',
  // No consumers yet: the encoding definition may change freely.
  plugin: waterParametricsRoutes(async () => false),
  demoData: (tx, { companyId }) => seedWaterParametrics(tx, companyId),
});
