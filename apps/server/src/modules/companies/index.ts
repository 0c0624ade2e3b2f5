import { defineModule } from '../../platform/module.ts';
import { companiesRoutes } from './companies.routes.ts';

/** The companies (utilities) of the installation, with their encrypted service credentials. */
export const companiesModule = defineModule({ name: 'companies', plugin: companiesRoutes });
