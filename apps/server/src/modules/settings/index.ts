import { DEYA_AA_SETTING } from '@protocol/contracts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import { defineModule } from '../../platform/module.ts';
import { settingsRoutes } from './settings.routes.ts';
import { putGeneralSetting } from './settings.service.ts';

/** General settings and the settings tables (banks, VAT, departments, addresses, custom fields …). */
export const settingsModule = defineModule({
  name: 'settings',
  plugin: settingsRoutes,
  demoData: (tx, { companyId }) => putGeneralSetting(tx, companyId, DEYA_AA_SETTING, '1', SYSTEM_USER),
});
