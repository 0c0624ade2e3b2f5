import { defineModule } from '../../platform/module.ts';
import { installationRoutes } from './installation.routes.ts';

/** What the installation tells anyone (spec §7 /api/installation/env) and its health. */
export const installationModule = defineModule({ name: 'installation', plugin: installationRoutes });
