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
  // The demo operators' groups (README "Demo accounts"): a protocol office, a water department, the
  // accounts office and the water service's supervisors; operators in DEMO_OPERATORS' order.
  demoData: async (tx, { companyId, operators: [maria, giorgos, eleni, konstantinos] }) => {
    const members = (...ids: (number | undefined)[]) => ids.filter((id) => id !== undefined);
    await seedGroup(tx, companyId, {
      name: 'Γραμματεία πρωτοκόλλου',
      description: 'Πρωτοκόλληση εισερχομένων και εξερχομένων, συναλλασσόμενοι και αιτήσεις πολιτών',
      permissions: ['protocol:write', 'traders:write', 'forms:write'],
      members: members(maria, giorgos),
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
      members: members(giorgos),
    });
    await seedGroup(tx, companyId, {
      name: 'Λογιστήριο',
      description: 'Παραστατικά, λογιστικό σχέδιο, βεβαιώσεις εσόδων και αποστολή στο myDATA της ΑΑΔΕ',
      permissions: [
        'finance:write',
        'mydata:admin',
        'traders:write',
        'consumers:read',
        'billing:read',
        'payments:read',
        'settlements:read',
      ],
      members: members(eleni),
    });
    await seedGroup(tx, companyId, {
      name: 'Προϊστάμενοι ύδρευσης',
      description:
        'Κλείσιμο περιόδων καταμέτρησης, τιμολογιακή πολιτική, παραμετρικά και διορθώσεις λογαριασμών',
      permissions: [
        'consumers:admin',
        'readouts:admin',
        'billing:admin',
        'settings:write',
        'payments:write',
        'settlements:write',
        'traders:read',
        'finance:read',
      ],
      members: members(konstantinos),
    });
  },
});
