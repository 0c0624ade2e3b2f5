import { type DocumentAssignees, documentAssigneesSchema } from '@protocol/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../../db/client.ts';
import { companyOf } from '../../../platform/auth.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { companyUsers } from '../../companies/companies.schema.ts';
import { userGroups } from '../../users/groups.schema.ts';
import { users } from '../../users/users.schema.ts';
import { fullNameSql } from './documents.common.ts';

/**
 * Whom a document may be charged or shared to: the company's active operators and its user groups
 * (departments), each sorted by name the Greek-aware way the lists sort (norm_text: no accents, no
 * case, ς→σ). Two queries whatever the company's size.
 */
export async function documentAssignees(db: Db, companyId: number): Promise<DocumentAssignees> {
  // Correlated subquery with explicit table names: Drizzle leaves columns unqualified in single-table queries.
  const activeMembers = sql<number>`(
    SELECT count(*)::int FROM user_group_members m
    JOIN users u ON u.id = m.user_id AND u.active
    JOIN company_users cu ON cu.user_id = u.id AND cu.company_id = ${companyId}
    WHERE m.group_id = ${sql.raw('"user_groups"."id"')})`;
  const [operators, groups] = await Promise.all([
    db
      .select({ id: users.id, username: users.username, fullName: fullNameSql(users) })
      .from(users)
      .innerJoin(companyUsers, and(eq(companyUsers.userId, users.id), eq(companyUsers.companyId, companyId)))
      .where(eq(users.active, true))
      .orderBy(asc(users.lastnameNorm), asc(users.firstnameNorm), asc(users.usernameNorm), asc(users.id)),
    db
      .select({ id: userGroups.id, name: userGroups.name, memberCount: activeMembers })
      .from(userGroups)
      .where(eq(userGroups.companyId, companyId))
      .orderBy(sql`norm_text(${userGroups.name})`, asc(userGroups.id)),
  ]);
  return {
    operators: operators.map((o) => ({ ...o, fullName: o.fullName || o.username })),
    groups: groups.map((g) => ({ ...g, memberCount: Number(g.memberCount) })),
  };
}

/**
 * GET /api/document/assignees: the charge and share pickers of the document actions,
 * readable with protocol:read (the users and groups lists need users:read / users:admin).
 */
export const assigneesRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/document/assignees',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['documents'],
        summary:
          'Whom a document may be charged or shared to: the active operators and the user groups of the company, by name',
        response: { 200: documentAssigneesSchema },
      },
    },
    async (request) => documentAssignees(db, companyOf(request)),
  );
};
