import { idSchema, type Permission } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, type Principal, principalOf } from '../auth.ts';
import type { ModuleOptions } from '../module.ts';
import { idParams } from '../params.ts';

type App = Parameters<FastifyPluginAsyncZod<ModuleOptions>>[0];

/** The body of a bulk delete (`DELETE <path>`) unless a route names its own. */
export const deleteIdsBody = z.object({ ids: z.array(idSchema).min(1).max(1000) });

/** Who asks, and the request's id for the audit lines of a change. */
interface Asker {
  principal: Principal;
  requestId: string;
}

/**
 * The company in use, for the reads and changes of a record whose routes are company scoped. Unscoped,
 * the service finds the company from the record itself (and checks the asker works for it).
 */
type InCompany<Scoped extends boolean> = Scoped extends true ? { companyId: number } : object;

interface Action {
  summary: string;
  /** What it needs, when not the routes' `read` (GET) or `write` (POST, PUT, DELETE). */
  permission?: Permission;
}

export interface RecordRoutes<Row, Save, Ids extends { ids: number[] }, Scoped extends boolean> {
  /** The records' address under the plugin's prefix: POST and DELETE `path`, GET and PUT `path/:id`. */
  path: string;
  tags: readonly string[];
  /** What GET, POST and PUT answer. */
  record: z.ZodType<Row>;
  /** The body of POST and PUT. */
  save: z.ZodType<Save, unknown>;
  read: Permission;
  write: Permission;
  /**
   * Reads and changes get the company in use (auth.ts `companyOf`) like creation does: for services
   * that look a record up within its company.
   */
  companyScoped?: Scoped;
  get?: Action & { load(ask: Asker & InCompany<Scoped> & { id: number }): Promise<Row> };
  /** POST `path`: a new record of the company in use, answered with 201. */
  create?: Action & {
    /** Its statement checks the session itself (auth.ts `checksSession`): a hot create saves a round trip. */
    checksSession?: boolean;
    run(ask: Asker & { companyId: number; body: Save }): Promise<Row>;
  };
  update?: Action & { run(ask: Asker & InCompany<Scoped> & { id: number; body: Save }): Promise<Row> };
  /** DELETE `path` with `{ ids }`, answered with 204. */
  remove?: Action & {
    body?: z.ZodType<Ids, unknown>;
    run(ask: Asker & InCompany<Scoped> & { ids: number[] }): Promise<void>;
  };
}

/**
 * The routes of one kind of record, declared once: GET and PUT of one record, POST of a new one,
 * DELETE of several; each with its permission, the company where it takes one, and its OpenAPI shape.
 */
export function registerRecordRoutes<
  Row,
  Save,
  Ids extends { ids: number[] },
  Scoped extends boolean = false,
>(app: App, spec: RecordRoutes<Row, Save, Ids, Scoped>): void {
  const { path, tags } = spec;
  // The reply's type is the record's schema; fastify's provider cannot follow a generic one.
  const record = spec.record as z.ZodType;
  const scoped = spec.companyScoped === true;
  const recordConfig = (permission: Permission) => ({ permission });
  const inCompany = (request: Parameters<typeof companyOf>[0]) =>
    (scoped ? { companyId: companyOf(request) } : {}) as InCompany<Scoped>;
  const asker = (request: Parameters<typeof companyOf>[0]): Asker => ({
    principal: principalOf(request),
    requestId: request.id,
  });

  const { get, create, update, remove } = spec;
  if (get) {
    app.get(
      `${path}/:id`,
      {
        config: recordConfig(get.permission ?? spec.read),
        schema: {
          tags: [...tags],
          summary: get.summary,
          params: idParams,
          response: { 200: record },
        },
      },
      async (request) => get.load({ ...asker(request), ...inCompany(request), id: request.params.id }),
    );
  }

  if (create) {
    app.post(
      path,
      {
        config: {
          permission: create.permission ?? spec.write,
          checksSession: create.checksSession,
        },
        schema: {
          tags: [...tags],
          summary: create.summary,
          body: spec.save,
          response: { 201: record },
        },
      },
      async (request, reply) => {
        const created = await create.run({
          ...asker(request),
          companyId: companyOf(request),
          body: request.body as Save,
        });
        return reply.status(201).send(created);
      },
    );
  }

  if (update) {
    app.put(
      `${path}/:id`,
      {
        config: recordConfig(update.permission ?? spec.write),
        schema: {
          tags: [...tags],
          summary: update.summary,
          params: idParams,
          body: spec.save,
          response: { 200: record },
        },
      },
      async (request) =>
        update.run({
          ...asker(request),
          ...inCompany(request),
          id: request.params.id,
          body: request.body as Save,
        }),
    );
  }

  if (remove) {
    app.delete(
      path,
      {
        config: { permission: remove.permission ?? spec.write },
        schema: { tags: [...tags], summary: remove.summary, body: remove.body ?? deleteIdsBody },
      },
      async (request, reply) => {
        await remove.run({ ...asker(request), ...inCompany(request), ids: (request.body as Ids).ids });
        return reply.status(204).send();
      },
    );
  }
}
