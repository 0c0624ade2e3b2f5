import { type UserListItem, usersCatalog } from '@protocol/contracts';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
import { companyUsers } from '../companies/companies.schema.ts';
import { users } from './users.schema.ts';

/** Which operators a caller may list: a super admin all; others those of their companies, no super admins. */
export function usersVisibleTo(principal: Principal): SQL | undefined {
  if (principal.superAdmin) return undefined;
  const mine = sql`(SELECT ${companyUsers.companyId} FROM ${companyUsers} WHERE ${companyUsers.userId} = ${principal.userId})`;
  return and(
    eq(users.superAdmin, false),
    sql`EXISTS (SELECT 1 FROM ${companyUsers} WHERE ${companyUsers.userId} = ${users.id} AND ${companyUsers.companyId} IN ${mine})`,
  );
}

/** The operators list (GET /api/users/search) on the list engine. */
export function usersList(db: Db) {
  return defineList<UserListItem>({
    catalog: usersCatalog,
    columns: {
      id: users.id,
      username: { value: users.username, normalized: users.usernameNorm },
      lastname: { value: users.lastname, normalized: users.lastnameNorm },
      firstname: { value: users.firstname, normalized: users.firstnameNorm },
      email: { value: users.email, normalized: users.emailNorm },
      kind: users.kind,
      superAdmin: users.superAdmin,
      active: users.active,
      createdate: users.createdate,
    },
    id: users.id,
    total: 'estimatedAboveLimit',
    ...listSource(
      db,
      () =>
        db
          .select({
            id: users.id,
            username: users.username,
            lastname: users.lastname,
            firstname: users.firstname,
            email: users.email,
            kind: users.kind,
            superAdmin: users.superAdmin,
            active: users.active,
            createdate: users.createdate,
          })
          .from(users)
          .$dynamic(),
      (row) => ({
        ...row,
        kind: row.kind === 1 ? (1 as const) : (2 as const),
        createdate: row.createdate?.toISOString() ?? null,
      }),
    ),
  });
}
