import { randomBytes } from 'node:crypto';
import {
  ATTACHMENT_MAX_MB_SETTING,
  ATTACHMENT_TYPES_SETTING,
  DEFAULT_ATTACHMENT_MAX_MB,
  DEFAULT_ATTACHMENT_TYPES,
  DEYA_AA_SETTING,
  userKinds,
} from '@protocol/contracts';
import { count, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { addUserToCompany, createCompany } from '../modules/companies/companies.service.ts';
import { seedDemoDocuments } from '../modules/protocol/documents.seed.ts';
import { seedProtocolSettings } from '../modules/protocol/protocol-settings.ts';
import { putGeneralSetting } from '../modules/settings/settings.service.ts';
import { seedGroup } from '../modules/users/groups.service.ts';
import { users } from '../modules/users/users.schema.ts';
import { createUser } from '../modules/users/users.service.ts';
import type { Db } from './client.ts';

const SYSTEM = 'system';

/** The demo operators the README lists. */
export const DEMO_OPERATORS = [
  {
    username: 'mpapadopoulou',
    password: 'Demo-2026!',
    firstname: 'Μαρία',
    lastname: 'Παπαδοπούλου',
    email: 'm.papadopoulou@deya-example.gr',
  },
  {
    username: 'gnikolaou',
    password: 'Demo-2026!',
    firstname: 'Γιώργος',
    lastname: 'Νικολάου',
    email: 'g.nikolaou@deya-example.gr',
  },
] as const;

/**
 * On an empty database: the administrator (with a generated password printed once when none is
 * configured) and, with SEED_DEMO, a demo water utility with two operators.
 */
export async function bootstrap(db: Db, config: Config, print: (line: string) => void): Promise<void> {
  const generated = await db.transaction(async (tx) => {
    // Several nodes may start on an empty database at once: one seeds, the others find it done.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(72510002)`);
    const [existing] = await tx.select({ n: count() }).from(users);
    if ((existing?.n ?? 0) > 0) return undefined;
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
      SYSTEM,
    );
    if (config.seedDemo) {
      const company = await createCompany(
        tx,
        {
          companyname: 'ΔΕΥΑ Αγίας Ελένης',
          companytitle: 'Δημοτική Επιχείρηση Ύδρευσης-Αποχέτευσης Αγίας Ελένης',
        },
        SYSTEM,
      );
      await putGeneralSetting(tx, company.id, DEYA_AA_SETTING, '1', SYSTEM);
      await putGeneralSetting(
        tx,
        company.id,
        ATTACHMENT_MAX_MB_SETTING,
        String(DEFAULT_ATTACHMENT_MAX_MB),
        SYSTEM,
      );
      await putGeneralSetting(
        tx,
        company.id,
        ATTACHMENT_TYPES_SETTING,
        DEFAULT_ATTACHMENT_TYPES.join(', '),
        SYSTEM,
      );
      await seedProtocolSettings(tx, company.id, SYSTEM);
      await addUserToCompany(tx, company.id, admin.id);
      const operators: number[] = [];
      for (const operator of DEMO_OPERATORS) {
        const user = await createUser(tx, { ...operator, kind: userKinds.user }, SYSTEM);
        await addUserToCompany(tx, company.id, user.id);
        operators.push(user.id);
      }
      await seedGroup(tx, company.id, {
        name: 'Γραμματεία πρωτοκόλλου',
        description: 'Πρωτοκόλληση εισερχομένων και εξερχομένων, συναλλασσόμενοι και αιτήσεις πολιτών',
        permissions: ['protocol:write', 'traders:write', 'forms:write'],
        members: operators,
      });
      await seedGroup(tx, company.id, {
        name: 'Τμήμα ύδρευσης',
        description: 'Παροχές, καταμετρήσεις και λογαριασμοί νερού',
        permissions: ['water:write', 'traders:read', 'finance:read'],
        members: operators.slice(1),
      });
      // Demo documents registered in this year's books (the books and traders are created if missing).
      await seedDemoDocuments(
        tx,
        company.id,
        { userId: admin.id, username: config.adminUsername },
        operators[1],
      );
    }
    return config.adminPassword ? undefined : password;
  });
  if (generated) {
    print(
      `First start: administrator "${config.adminUsername}" created with password "${generated}". It is shown only once; change it after signing in.`,
    );
  }
}
