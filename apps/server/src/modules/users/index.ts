import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { defineModule, type ModuleOptions } from '../../platform/module.ts';
import { accountRoutes } from './account.routes.ts';
import { groupsRoutes } from './groups.routes.ts';
import { seedGroup } from './groups.service.ts';
import { usersRoutes } from './users.routes.ts';

const plugin: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  await app.register(accountRoutes, options);
  await app.register(usersRoutes, options);
  await app.register(groupsRoutes, options);
};

/** Operators, their sign-in and their groups with the permissions they grant. */
export const usersModule = defineModule({
  name: 'users',
  plugin,
  // The demo operators' groups: a protocol office and a water department.
  demoData: async (tx, { companyId, operators }) => {
    await seedGroup(tx, companyId, {
      name: 'Γραμματεία πρωτοκόλλου',
      description: 'Πρωτοκόλληση εισερχομένων και εξερχομένων, συναλλασσόμενοι και αιτήσεις πολιτών',
      permissions: ['protocol:write', 'traders:write', 'forms:write'],
      members: operators,
    });
    await seedGroup(tx, companyId, {
      name: 'Τμήμα ύδρευσης',
      description: 'Παροχές, καταμετρήσεις και λογαριασμοί νερού',
      permissions: [
        'consumers:write',
        'readouts:write',
        'billing:write',
        'payments:write',
        'traders:read',
        'finance:read',
        'settlements:write',
      ],
      members: operators.slice(1),
    });
  },
});
