import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { shutDown } from './readiness.ts';

describe('GET /api/ready', () => {
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is not ready before the server listens: no job worker runs yet', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/ready',
      headers: { 'accept-language': 'el' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 503,
      key: 'error.not_ready',
      params: { failing: 'worker' },
      checks: { migrations: 'ok', database: 'ok', storage: 'ok', worker: 'failed', shutdown: 'ok' },
    });
    expect(response.json().message).toContain('δεν είναι έτοιμος');
  });

  it('is ready once listening, and says so in every check', async () => {
    url = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/ready`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { migrations: 'ok', database: 'ok', storage: 'ok', worker: 'ok', shutdown: 'ok' },
    });
  });

  it('fails the migrations check when the database lacks the newest migration', async () => {
    const db = t.database.db;
    const newest = sql`(SELECT max(created_at) FROM drizzle.__drizzle_migrations)`;
    await db.execute(
      sql`UPDATE drizzle.__drizzle_migrations SET created_at = created_at - 1 WHERE created_at = ${newest}`,
    );
    try {
      const response = await fetch(url);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ params: { failing: 'migrations' } });
    } finally {
      await db.execute(
        sql`UPDATE drizzle.__drizzle_migrations SET created_at = created_at + 1 WHERE created_at = ${newest}`,
      );
    }
    expect((await fetch(url)).status).toBe(200);
  });

  it('answers not-ready as soon as a shutdown begins, then stops listening', async () => {
    const stopping = shutDown(t.app, 1500);
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      key: 'error.not_ready',
      params: { failing: 'worker, shutdown' },
      checks: { worker: 'failed', shutdown: 'failed', database: 'ok' },
    });
    await stopping;
    await expect(fetch(url)).rejects.toThrow();
  });
});
