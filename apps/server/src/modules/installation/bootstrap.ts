import { randomBytes } from 'node:crypto';
import { userKinds } from '@protocol/contracts';
import { count, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { DEMO_COMPANY_VATNUMBER, DEMO_OPERATORS } from '../../db/demo-operators.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import { type AppModule, companyDefaultsOf } from '../../platform/module.ts';
import { addUserToCompany, createCompany } from '../companies/api.ts';
import { createUser } from '../users/api.ts';
import { users } from '../users/users.schema.ts';

/** What start-up found or did on the database (main.ts prints it in its summary). */
export interface Bootstrapped {
  /** The database was empty: the administrator (and the demo, with SEED_DEMO) were created now. */
  created: boolean;
  /** The administrator's password when it was generated now (shown once); else undefined. */
  adminPassword: string | undefined;
}

/**
 * On an empty database: the administrator (with a generated password, returned to be shown once,
 * when none is configured) and, with SEED_DEMO, a demo water utility with its operators, the
 * defaults every new company gets and each module's demo data.
 */
export async function bootstrap(
  db: Db,
  config: Config,
  modules: readonly AppModule[],
): Promise<Bootstrapped> {
  return db.transaction(async (tx) => {
    // Several nodes may start on an empty database at once: one seeds, the others find it done.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(72510002)`);
    const [existing] = await tx.select({ n: count() }).from(users);
    if ((existing?.n ?? 0) > 0) return { created: false, adminPassword: undefined };
    const password = config.adminPassword ?? randomBytes(12).toString('base64url');
    const admin = await createUser(
      tx,
      {
        username: config.adminUsername,
        password,
        firstname: 'Διαχειριστής',
        lastname: 'Συστήματος',
        kind: userKinds.admin,
        superAdmin: true,
      },
      SYSTEM_USER,
    );
    if (config.seedDemo) {
      const company = await createCompany(
        tx,
        {
          companyname: 'ΔΕΥΑ Αγίας Ελένης',
          companytitle: 'Δημοτική Επιχείρηση Ύδρευσης-Αποχέτευσης Αγίας Ελένης',
          vatnumber: DEMO_COMPANY_VATNUMBER,
        },
        SYSTEM_USER,
      );
      await companyDefaultsOf(modules)(tx, company.id, SYSTEM_USER);
      await addUserToCompany(tx, company.id, admin.id);
      const operators: number[] = [];
      for (const operator of DEMO_OPERATORS) {
        const user = await createUser(tx, { ...operator, kind: userKinds.user }, SYSTEM_USER);
        await addUserToCompany(tx, company.id, user.id);
        operators.push(user.id);
      }
      const demo = {
        companyId: company.id,
        admin: { userId: admin.id, username: config.adminUsername },
        operators,
      };
      for (const module of modules) await module.demoData?.(tx, demo);
    }
    return { created: true, adminPassword: config.adminPassword ? undefined : password };
  });
}
