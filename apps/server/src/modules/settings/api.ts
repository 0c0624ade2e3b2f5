// What other modules may use of the settings (see README "Adding a module").
export { putGeneralSetting } from './settings.service.ts';
