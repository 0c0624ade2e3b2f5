import {
  type Company,
  companyListItemSchema,
  companySchema,
  errorKeys,
  saveCompanySchema,
} from '@protocol/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { behindCompanyWall, outsideCompanyWall } from '../../db/wall.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../platform/audit-columns.ts';
import { type Principal, principalOf } from '../../platform/auth.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { users } from '../users/users.schema.ts';
import { companiesList } from './companies.list.ts';
import { companies, companyUsers } from './companies.schema.ts';
import { mergeCredentials, publicCredentials, readCredentials } from './credentials.ts';

async function describe(db: Db, box: SecretBox, row: typeof companies.$inferSelect): Promise<Company> {
  const admins = await db
    .select({ id: users.id })
    .from(companyUsers)
    .innerJoin(users, eq(users.id, companyUsers.userId))
    .where(and(eq(companyUsers.companyId, row.id), eq(users.kind, 1)))
    .orderBy(asc(users.id));
  return {
    id: row.id,
    companyname: row.companyname,
    companytitle: row.companytitle,
    vatnumber: row.vatnumber,
    address: row.address,
    city: row.city,
    zipcode: row.zipcode,
    phone: row.phone,
    email: row.email,
    active: row.active,
    ...auditFieldsOf(row),
    credentials: publicCredentials(readCredentials(box, row.credentials)),
    admusers: admins.map((a) => a.id),
  };
}

/**
 * A company the operator works for, whichever is in use: the companies screen lists and edits all of
 * them (crossing companies is its point); any other is 'not found'.
 */
async function companyRow(db: Db, principal: Principal, id: number) {
  if (!principal.companyIds.includes(id)) throw notFound();
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  if (!row) throw notFound();
  return row;
}

/** Creating, listing and (de)activating the installation's companies is the super administrator's. */
function superAdminOnly(principal: Principal): void {
  if (!principal.superAdmin) throw forbidden(errorKeys.companiesSuperAdminOnly);
}

/** Companies (spec §3 Company, §6): their names and their service credentials, encrypted at rest. */
export const companiesRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, secrets, companyDefaults, lists },
) => {
  registerListRoute(app, lists, {
    path: '/companies/search',
    permission: 'settings:admin',
    companyScoped: false,
    list: companiesList(db),
    // All of the installation's companies, active or not: only the super administrator's.
    scope: ({ principal }) => {
      superAdminOnly(principal);
      return undefined;
    },
    tags: ['companies'],
    summary: 'The companies of the installation (super administrator; list engine)',
    item: companyListItemSchema,
  });

  app.get(
    '/companies',
    {
      config: { signedIn: true },
      schema: {
        tags: ['companies'],
        summary: 'The companies the operator works for',
        response: { 200: z.array(companySchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.companyIds.length === 0) return [];
      // Every company the operator works for, not only the one in use: the company switcher's list.
      const rows = await db
        .select()
        .from(companies)
        .where(inArray(companies.id, principal.companyIds))
        .orderBy(asc(companies.id));
      return Promise.all(rows.map((r) => describe(db, secrets, r)));
    },
  );

  app.get(
    '/companies/:id',
    {
      config: { permission: 'settings:admin' },
      schema: {
        tags: ['companies'],
        summary: 'A company',
        params: idParams,
        response: { 200: companySchema },
      },
    },
    async (request) => describe(db, secrets, await companyRow(db, principalOf(request), request.params.id)),
  );

  const save = async (
    principal: Principal,
    id: number | null,
    body: z.output<typeof saveCompanySchema>,
    requestId: string,
  ) => {
    const current = id === null ? undefined : await companyRow(db, principal, id);
    if (body.active !== undefined && body.active !== (current?.active ?? true)) superAdminOnly(principal);
    const stored = mergeCredentials(
      readCredentials(secrets, current?.credentials ?? null),
      body.credentials ?? {},
    );
    const values = {
      companyname: body.companyname,
      companytitle: body.companytitle,
      vatnumber: body.vatnumber,
      // Absent keeps (the company's own settings page sends only its names and credentials).
      ...(body.address !== undefined ? { address: body.address } : {}),
      ...(body.city !== undefined ? { city: body.city } : {}),
      ...(body.zipcode !== undefined ? { zipcode: body.zipcode } : {}),
      ...(body.phone !== undefined ? { phone: body.phone } : {}),
      ...(body.email !== undefined ? { email: body.email } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      credentials: Object.keys(stored).length > 0 ? secrets.seal(JSON.stringify(stored)) : null,
    };
    // The company saved is not always the one in use: its change goes behind its own wall, and a new
    // company's first rows (the super administrator's) are written before it has one.
    const transaction = <T>(work: () => Promise<T>) =>
      current ? behindCompanyWall(current.id, work) : outsideCompanyWall('company created', work);
    const row = await transaction(() =>
      db.transaction(async (tx) => {
        const [saved] = current
          ? await tx
              .update(companies)
              .set({ ...values, ...updatedBy(principal.username) })
              .where(eq(companies.id, current.id))
              .returning()
          : await tx
              .insert(companies)
              .values({ ...values, createuser: principal.username })
              .returning();
        if (!saved) throw notFound();
        // A new company gets the reference data of the modules (protocol document types …).
        if (!current) await companyDefaults(tx, saved.id, principal.username);
        await recordAudit(tx, {
          entity: 'company',
          entityId: saved.id,
          action: current ? 'update' : 'create',
          companyId: saved.id,
          user: principal,
          // Which credentials changed, never their values.
          changes: {
            companyname: { before: current?.companyname ?? null, after: body.companyname },
            active: { before: current?.active ?? null, after: body.active ?? current?.active ?? true },
            credentials: { before: null, after: Object.keys(body.credentials ?? {}) },
          },
          requestId,
        });
        return saved;
      }),
    );
    return describe(db, secrets, row);
  };

  app.post(
    '/companies',
    {
      config: { permission: 'settings:admin' },
      schema: {
        tags: ['companies'],
        summary: 'Create a company (super admins)',
        body: saveCompanySchema,
        response: { 201: companySchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      superAdminOnly(principal);
      return reply.status(201).send(await save(principal, null, request.body, request.id));
    },
  );

  app.put(
    '/companies/:id',
    {
      config: { permission: 'settings:admin' },
      schema: {
        tags: ['companies'],
        summary: 'Change a company and its credentials (secrets: absent keeps, empty clears)',
        params: idParams,
        body: saveCompanySchema,
        response: { 200: companySchema },
      },
    },
    async (request) => save(principalOf(request), request.params.id, request.body, request.id),
  );
};
