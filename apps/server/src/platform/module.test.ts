import type { EntityCatalog } from '@protocol/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appModules } from '../app.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { notFound } from './errors.ts';
import { defineList } from './list/list.ts';
import { registerListRoute } from './list/route.ts';
import { listSource } from './list/source.ts';
import { defineModule, type ModuleOptions } from './module.ts';
import { registerRecordRoutes } from './record/routes.ts';

/**
 * A new module is its folder plus one line in the module list: this one, declared here as a module
 * folder would, gets its record routes and list (with exports), its company defaults, its demo data and its
 * trader references from the platform, without touching any other file.
 */
const meterNotes = pgTable('fixture_meter_notes', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id').notNull(),
  note: text('note').notNull(),
  traderId: integer('trader_id'),
});
const catalog: EntityCatalog = {
  entity: 'meterNotes',
  titleKey: 'users.title',
  defaultSort: { field: 'note', desc: false },
  fields: [
    {
      id: 'note',
      type: 'text',
      labelKey: 'users.field.username',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      searchable: true,
    },
  ],
};
const noteSchema = z.object({ id: z.number(), note: z.string() });
const saveNoteSchema = z.object({ note: z.string().min(1).max(200) });
const note = { id: meterNotes.id, note: meterNotes.note };
const companiesWithDefaults: number[] = [];
let demoCompany: number | undefined;

const plugin: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  registerListRoute(app, lists, {
    path: '/meter_notes/search',
    permission: 'settings:read',
    list: defineList({
      catalog,
      columns: { note: meterNotes.note },
      id: meterNotes.id,
      ...listSource(db, () => db.select(note).from(meterNotes).$dynamic()),
    }),
    scope: ({ companyId }) => eq(meterNotes.companyId, companyId),
    tags: ['meterNotes'],
    summary: 'Notes of a fixture module',
    item: noteSchema,
  });
  registerRecordRoutes(app, {
    path: '/meter_notes',
    tags: ['meterNotes'],
    record: noteSchema,
    save: saveNoteSchema,
    read: 'settings:read',
    write: 'settings:admin',
    companyScoped: true,
    get: {
      summary: 'A note of the company in use',
      load: async ({ companyId, id }) => {
        const [row] = await db
          .select(note)
          .from(meterNotes)
          .where(and(eq(meterNotes.id, id), eq(meterNotes.companyId, companyId)));
        if (!row) throw notFound();
        return row;
      },
    },
    create: {
      summary: 'A new note of the company in use',
      run: async ({ companyId, body }) => {
        const [row] = await db.insert(meterNotes).values({ companyId, note: body.note }).returning(note);
        if (!row) throw notFound();
        return row;
      },
    },
    remove: {
      summary: 'Delete notes of the asker’s companies',
      run: async ({ principal, ids }) => {
        await db
          .delete(meterNotes)
          .where(and(inArray(meterNotes.id, ids), inArray(meterNotes.companyId, principal.companyIds)));
      },
    },
  });
};

const fixtureModule = defineModule({
  name: 'meterNotes',
  plugin,
  companyDefaults: async (_tx, companyId) => {
    companiesWithDefaults.push(companyId);
  },
  demoData: async (_tx, demo) => {
    demoCompany = demo.companyId;
  },
  references: [{ target: 'traders', table: 'fixture_meter_notes', column: 'trader_id' }],
});

let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await startTestApp({}, [...appModules, fixtureModule]);
  await t.database.db.execute(
    sql`CREATE TABLE fixture_meter_notes (id serial PRIMARY KEY, company_id integer NOT NULL, note text NOT NULL, trader_id integer)`,
  );
  admin = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

describe('a module wired by its declaration alone', () => {
  it('gets its demo data and the company defaults at first start, and on every new company', async () => {
    expect(demoCompany).toBeDefined();
    expect(companiesWithDefaults).toEqual([demoCompany]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: admin,
      payload: { companyname: 'ΔΕΥΑ Νέα', companytitle: 'ΔΕΥΑ Νέα', vatnumber: '094014201' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(companiesWithDefaults).toEqual([demoCompany, created.json().id]);
  });

  it('serves its list in the company in use, refuses another company, and exports the same list', async () => {
    await t.database.db.insert(meterNotes).values([
      { companyId: demoCompany as number, note: 'Μετρητής στο υπόγειο' },
      { companyId: 9999, note: 'Άλλης εταιρείας' },
    ]);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/meter_notes/search?companyid=${demoCompany}&search=υπογειο`,
      headers: admin,
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().content).toEqual([expect.objectContaining({ note: 'Μετρητής στο υπόγειο' })]);
    const clerk = await t.login('gnikolaou', 'Demo-2026!');
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/meter_notes/search?companyid=9999',
      headers: clerk,
    });
    expect(other.statusCode).toBe(404);
    const exported = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: admin,
      payload: { uri: `/api/meter_notes/search?companyid=${demoCompany}`, params: { format: 'csv' } },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(Buffer.from(exported.json().file, 'base64').toString('utf8')).toContain('Μετρητής στο υπόγειο');
  });

  it('serves its records: created and read in the company in use, deleted, each with its permission', async () => {
    const url = `/api/meter_notes?companyid=${demoCompany}`;
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: admin,
      payload: { note: 'Νέα σημείωση' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();
    const read = (companyid: number | undefined, headers = admin) =>
      t.app.inject({ method: 'GET', url: `/api/meter_notes/${id}?companyid=${companyid}`, headers });
    expect((await read(demoCompany)).json()).toEqual({ id, note: 'Νέα σημείωση' });
    expect((await read(9999)).statusCode).toBe(404);
    const clerk = await t.login('gnikolaou', 'Demo-2026!');
    const refused = await t.app.inject({ method: 'POST', url, headers: clerk, payload: { note: 'Όχι' } });
    expect(refused.statusCode).toBe(403);
    const empty = await t.app.inject({ method: 'POST', url, headers: admin, payload: { note: '' } });
    expect(empty.statusCode).toBe(400);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/meter_notes',
      headers: admin,
      payload: { ids: [id] },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await read(demoCompany)).statusCode).toBe(404);
  });

  it('has its references moved by a trader merge', async () => {
    const create = async (lastname: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/traders?companyid=${demoCompany}`,
        headers: admin,
        payload: { individual: true, lastname, firstname: 'Δοκιμή' },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as number;
    };
    const survivor = await create('Μένει');
    const merged = await create('Φεύγει');
    await t.database.db
      .insert(meterNotes)
      .values({ companyId: demoCompany as number, note: 'Του συγχωνευμένου', traderId: merged });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/traders/merge',
      headers: admin,
      payload: { survivorId: survivor, mergedId: merged, values: {} },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [note] = await t.database.db
      .select({ traderId: meterNotes.traderId })
      .from(meterNotes)
      .where(eq(meterNotes.note, 'Του συγχωνευμένου'));
    expect(note?.traderId).toBe(survivor);
  });
});
