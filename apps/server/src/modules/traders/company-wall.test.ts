import { saveTraderSchema } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appModules } from '../../app.ts';
import { behindCompanyWall, companyBehindWall } from '../../db/wall.ts';
import type { Principal } from '../../platform/auth.ts';
import type { AppModule, ModuleOptions } from '../../platform/module.ts';
import { ADMIN_PASSWORD, adminPrincipal, startTestApp, type TestApp } from '../../test/harness.ts';
import { createCompany } from '../companies/api.ts';
import { traders } from './traders.schema.ts';
import { createTrader, deleteTraders, getTrader, updateTrader } from './traders.service.ts';

/**
 * The second wall behind the services' own company conditions (db/wall.ts): the traders' service is
 * called as if its condition named the other company (so it holds nothing back), behind the wall of
 * the company in use, and still reads and writes nothing of the other company.
 */
const probe: AppModule = {
  name: 'wall-probe',
  plugin: (async (app, { db }: ModuleOptions) => {
    // A read with no company condition at all, as a forgetful route would write it.
    app.get('/wall-probe', { config: { signedIn: true } }, async () => ({
      company: companyBehindWall() ?? null,
      traders: (await db.select({ fullname: traders.fullname }).from(traders)).map((t) => t.fullname),
    }));
  }) as FastifyPluginAsync<ModuleOptions>,
};

describe('the company wall behind a service', () => {
  let t: TestApp;
  let mine: number;
  let theirs: number;
  let theirTrader: number;
  let principal: Principal;
  const save = (fullname: string) => saveTraderSchema.parse({ individual: false, fullname });

  beforeAll(async () => {
    t = await startTestApp({ COMPANY_WALL: 'on' }, [...appModules, probe]);
    const db = t.database.db;
    mine = (await createCompany(db, { companyname: 'Εμείς', companytitle: 'Εμείς' }, 'test')).id;
    theirs = (await createCompany(db, { companyname: 'Εκείνοι', companytitle: 'Εκείνοι' }, 'test')).id;
    principal = await adminPrincipal(t);
    await createTrader(db, principal, mine, save('Δικός μας'), 'test');
    theirTrader = (await createTrader(db, principal, theirs, save('Δικός τους'), 'test')).id;
  });
  afterAll(() => t?.close());

  const theirRow = async () =>
    (await t.database.db.select().from(traders).where(eq(traders.id, theirTrader)))[0];

  it('reads nothing of another company', async () => {
    await expect(
      behindCompanyWall(mine, () => getTrader(t.database.db, theirs, theirTrader)),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('changes and deletes nothing of another company', async () => {
    await expect(
      behindCompanyWall(mine, () =>
        updateTrader(t.database.db, principal, theirs, theirTrader, save('Αλλαγμένος'), 'test'),
      ),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      behindCompanyWall(mine, () => deleteTraders(t.database.db, principal, theirs, [theirTrader], 'test')),
    ).rejects.toMatchObject({ status: 404 });
    expect((await theirRow())?.fullname).toBe('Δικός τους');
  });

  it('writes no row into another company', async () => {
    const before = await t.database.db.select().from(traders).where(eq(traders.companyId, theirs));
    await expect(
      behindCompanyWall(mine, () =>
        createTrader(t.database.db, principal, theirs, save('Φυτεμένος'), 'test'),
      ),
    ).rejects.toThrow();
    expect(await t.database.db.select().from(traders).where(eq(traders.companyId, theirs))).toEqual(before);
  });

  it('stands behind every signed-in request, for the company it works in', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const probeAs = async (company: number) => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/wall-probe',
        headers: { ...admin, 'x-company-id': String(company) },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    expect(await probeAs(mine)).toEqual({ company: mine, traders: ['Δικός μας'] });
    expect(await probeAs(theirs)).toEqual({ company: theirs, traders: ['Δικός τους'] });
  });
});
