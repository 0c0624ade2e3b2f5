import { defineModule } from '../../platform/module.ts';
import { settingsDemoData } from './settings.demo.ts';
import { settingsRoutes } from './settings.routes.ts';

/** General settings and the settings tables (banks, VAT, departments, addresses, custom fields …). */
export const settingsModule = defineModule({
  name: 'settings',
  plugin: settingsRoutes,
  demoData: (tx, { companyId }) => settingsDemoData(tx, companyId),
});
