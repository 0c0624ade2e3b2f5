import { defineModule } from '../../platform/module.ts';
import { traderSearchSource } from './search.ts';
import { tradersRoutes } from './traders.routes.ts';

/** Traders (συναλλασσόμενοι): the counterparties of documents, consumers and invoices. */
export const tradersModule = defineModule({
  name: 'traders',
  plugin: tradersRoutes,
  search: [traderSearchSource],
});
