// What other modules may use of the settings (see README "Adding a module").

export { customExportsOf } from './custom-exports.ts';
export { loadCustomFields } from './custom-fields.service.ts';
export { putGeneralSetting } from './settings.service.ts';
