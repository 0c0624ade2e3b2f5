import { defineModule } from '../../platform/module.ts';

/** The operators' notifications: written by other modules (`api.ts`); read in the top bar next. */
export const notificationsModule = defineModule({ name: 'notifications' });
