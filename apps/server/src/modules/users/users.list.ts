import { type Page, type UserListItem, usersCatalog } from '@protocol/contracts';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { type ListQuerystring, parseListQuery } from '../../platform/list/query.ts';
import {
  type FieldColumns,
  listOrderBy,
  listWhere,
  pageOf,
  searchCondition,
} from '../../platform/list/sql.ts';
import { companyUsers } from '../companies/companies.schema.ts';
import { users } from './users.schema.ts';

const columns: FieldColumns = {
  id: users.id,
  username: users.username,
  lastname: users.lastname,
  firstname: users.firstname,
  email: users.email,
  kind: users.kind,
  superAdmin: users.superAdmin,
  active: users.active,
  createdate: users.createdate,
};

/** Which operators a caller may list: a super admin all; others those of their companies, no super admins. */
function visibleTo(principal: Principal): SQL | undefined {
  if (principal.superAdmin) return undefined;
  const mine = sql`(SELECT ${companyUsers.companyId} FROM ${companyUsers} WHERE ${companyUsers.userId} = ${principal.userId})`;
  return and(
    eq(users.superAdmin, false),
    sql`EXISTS (SELECT 1 FROM ${companyUsers} WHERE ${companyUsers.userId} = ${users.id} AND ${companyUsers.companyId} IN ${mine})`,
  );
}

/** GET /api/users/search: the operators list on the list engine. */
export async function searchUsers(
  db: Db,
  principal: Principal,
  querystring: ListQuerystring,
): Promise<Page<UserListItem>> {
  const query = parseListQuery(usersCatalog, querystring);
  const where = and(
    visibleTo(principal),
    listWhere(query, columns),
    searchCondition(query, [users.username, users.lastname, users.firstname, users.email]),
  );
  return pageOf(
    query,
    async (limit, offset) => {
      const rows = await db
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
        .where(where)
        .orderBy(...listOrderBy(query, columns, users.id))
        .limit(limit)
        .offset(offset);
      return rows.map((row) => ({
        ...row,
        kind: row.kind === 1 ? (1 as const) : (2 as const),
        createdate: row.createdate?.toISOString() ?? null,
      }));
    },
    async () => {
      const [row] = await db.select({ n: count() }).from(users).where(where);
      return row?.n ?? 0;
    },
  );
}
