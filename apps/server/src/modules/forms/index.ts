import { defineModule } from '../../platform/module.ts';
import { seedDemoForms } from './forms.demo.ts';
import { formsRoutes } from './forms.routes.ts';
import { publicFormsRoutes } from './public.routes.ts';
import { submissionSearchSource } from './search.ts';

/** Online forms (issue 14): the builder, the citizens' public forms and the review desk. */
export const formsModule = defineModule({
  name: 'forms',
  plugin: async (app, options) => {
    await app.register(formsRoutes, options);
    await app.register(publicFormsRoutes, options);
  },
  demoData: seedDemoForms,
  references: [{ target: 'traders', table: 'form_submissions', column: 'trader_id' }],
  storageColumns: [{ table: 'form_uploads', column: 'storage_key' }],
  search: [submissionSearchSource],
});
