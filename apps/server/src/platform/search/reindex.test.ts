import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appModules } from '../../app.ts';
import { rowsOf } from '../../db/client.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { jobRegistryOf } from '../jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../jobs/worker.ts';
import { REINDEX_JOB, reindexHandler } from './reindex.ts';

/**
 * POST /api/reindex rebuilds the company's search index as a background job: one per company at a
 * time, its progress readable, and afterwards every row is found again.
 */
let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker | undefined;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const search = async (text: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/search?companyid=1&search=${encodeURIComponent(text)}`,
      headers: admin,
    })
  ).json();

describe('reindex', () => {
  it('rebuilds the vectors of every indexed table in a job, with progress; one per company at a time', async () => {
    const before = await search('αιτηση');
    expect(before.inboxDTOList.length + before.outboxDTOList.length).toBeGreaterThan(0);
    // Lose the index behind the triggers' back, as a changed configuration would leave it stale.
    for (const table of ['documents', 'cases', 'traders']) {
      await t.database.db.execute(sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_search_vector`));
      await t.database.db.execute(sql.raw(`UPDATE ${table} SET search_vector = NULL`));
      await t.database.db.execute(sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_search_vector`));
    }
    const lost = await search('αιτηση');
    expect(lost.inboxDTOList.length + lost.outboxDTOList.length).toBe(0);

    const first = await t.app.inject({ method: 'POST', url: '/api/reindex?companyid=1', headers: admin });
    expect(first.statusCode, first.body).toBe(202);
    const again = await t.app.inject({ method: 'POST', url: '/api/reindex?companyid=1', headers: admin });
    expect(again.json().id).toBe(first.json().id);

    const sources = appModules.flatMap((m) => m.search ?? []);
    // The app's modules too: their hooks hear of the job's end (the notifications module tells the owner).
    worker = startJobWorker(
      t.database.db,
      jobRegistryOf([
        ...appModules,
        { name: 'search', jobs: { [REINDEX_JOB]: reindexHandler(sources) as never } },
      ]),
      { pollMs: 50 },
    );
    let job: { state: string; progressDone: number | null; progressTotal: number | null } | undefined;
    for (let i = 0; i < 200; i++) {
      job = (
        await t.app.inject({ method: 'GET', url: `/api/jobs/${first.json().id}`, headers: admin })
      ).json();
      if (job?.state === 'succeeded' || job?.state === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job).toMatchObject({ state: 'succeeded' });
    expect(job?.progressTotal).toBeGreaterThan(0);
    expect(job?.progressDone).toBe(job?.progressTotal);
    const after = await search('αιτηση');
    expect(after).toEqual(before);
    // Its owner is told, in their language, with a link to the jobs.
    const told = await t.app.inject({ method: 'GET', url: '/api/notification', headers: admin });
    expect(told.json()[0]).toMatchObject({
      message: 'Η εργασία «Αναδημιουργία ευρετηρίου αναζήτησης» ολοκληρώθηκε.',
      path: '/jobs',
      read: false,
    });
  });

  it('rewrites only the rows whose vector is stale: a rerun rewrites nothing', async () => {
    const sources = appModules.flatMap((m) => m.search ?? []);
    const tables = [...new Set(sources.flatMap((source) => (source.indexes ? [source.indexes] : [])))];
    expect(tables).toEqual(expect.arrayContaining(['documents', 'cases', 'traders']));
    // What the reindex compares with is what every table's trigger stored.
    for (const table of tables) {
      const [row] = rowsOf<{ rows: number; differ: number }>(
        await t.database.db.execute(
          sql.raw(`SELECT count(*)::int AS rows,
            count(*) FILTER (WHERE search_vector IS DISTINCT FROM search_vector_of(t))::int AS differ
            FROM ${table} t`),
        ),
      );
      expect(row?.differ, table).toBe(0);
    }
    // Three documents with a vector of another configuration, as a changed one would leave them.
    const stale = rowsOf<{ id: number }>(
      await t.database.db.execute(sql`SELECT id FROM documents WHERE company_id = 1 ORDER BY id LIMIT 3`),
    ).map((row) => row.id);
    await t.database.db.execute(sql`ALTER TABLE documents DISABLE TRIGGER documents_search_vector`);
    await t.database.db.execute(
      sql`UPDATE documents SET search_vector = to_tsvector('simple', 'παλιό') WHERE id IN ${stale}`,
    );
    await t.database.db.execute(sql`ALTER TABLE documents ENABLE TRIGGER documents_search_vector`);
    const versions = async () =>
      rowsOf<{ id: number; xmin: string }>(
        await t.database.db.execute(
          sql`SELECT id, xmin::text FROM documents WHERE company_id = 1 ORDER BY id`,
        ),
      );
    const before = await versions();
    const reindex = reindexHandler(sources);
    const run = () =>
      reindex({
        payload: { companyId: 1 },
        db: t.database.db,
        job: undefined as never,
        progress: async () => undefined,
        signal: new AbortController().signal,
      });
    const first = (await run()) as { rows: number; rewritten: number };
    expect(first.rewritten).toBe(3);
    const after = await versions();
    // Only the stale rows are new row versions; the others were read, not written.
    expect(after.filter((row, i) => row.xmin !== before[i]?.xmin).map((row) => row.id)).toEqual(stale);
    const [fixed] = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM documents t WHERE id IN ${stale} AND search_vector = search_vector_of(t)`,
      ),
    );
    expect(fixed?.n).toBe(3);
    const again = (await run()) as { rows: number; rewritten: number };
    expect(again).toMatchObject({ rows: first.rows, rewritten: 0 });
    expect(await versions()).toEqual(after);
  });

  it('needs settings:write', async () => {
    const reader = await t.login('gnikolaou', 'Demo-2026!');
    const refused = await t.app.inject({ method: 'POST', url: '/api/reindex?companyid=1', headers: reader });
    expect(refused.statusCode).toBe(403);
  });
});
