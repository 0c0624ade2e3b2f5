import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import {
  ADMIN_PASSWORD,
  createOperator,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { LOGIN_LIMIT_PER_IP, LOGIN_LIMIT_PER_USERNAME } from './users.service.ts';

/**
 * The sign-in limits when the attempts arrive at once (issue 29 item 2). On PostgreSQL the app's pool
 * runs them on many connections: the test holds the user name's lock (`login_attempt`, migration
 * 0040) from a connection of its own until a full pool of sign-ins waits on it inside the database,
 * so they are provably in flight together, then lets them go. PGlite has one connection, but a
 * sign-in still awaits argon2id between its statements, so there too the attempts interleave.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ATTEMPTS = 60;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  const admin = await t.login('admin', ADMIN_PASSWORD);
  for (const username of ['probe29', 'townhall29']) {
    const created = await createOperator(t, admin, { username, firstname: 'Δοκιμή', lastname: 'Όριο' });
    expect(created.statusCode).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
});

const login = (username: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/account/login', payload: { username, password }, remoteAddress });

const failuresOf = async (username: string) =>
  rowsOf<{ n: number }>(
    await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM login_failures WHERE username = ${username}`,
    ),
  )[0]?.n;

/**
 * Runs `attempts` while a connection of the test holds the lock of `lockKey` (a name's, on PostgreSQL)
 * until `waiting` sign-ins wait for it in the database; on PGlite simply all at once.
 */
async function allAtOnce<T>(lockKey: string, attempts: (() => Promise<T>)[]): Promise<T[]> {
  if (!onPostgres) return Promise.all(attempts.map((attempt) => attempt()));
  const client = new pg.Client({ connectionString: t.config.databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(72510041, hashtext($1))', [lockKey]);
    const running = Promise.all(attempts.map((attempt) => attempt()));
    // Every connection of the app's pool is inside a sign-in's statement, waiting for the lock.
    const waiting = Math.min(attempts.length, t.config.databasePoolMax);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
      );
      if ((rows[0]?.n ?? 0) >= waiting) break;
      if (Date.now() > deadline) throw new Error(`only ${rows[0]?.n} sign-ins waited together`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query('SELECT pg_advisory_unlock(72510041, hashtext($1))', [lockKey]);
    return await running;
  } finally {
    await client.end();
  }
}

describe('sign-in limits under parallel attempts', () => {
  it('issue 29 item 2: the sign-in limit holds when 60 wrong passwords arrive at once', async () => {
    const answers = await allAtOnce(
      'probe29',
      Array.from({ length: ATTEMPTS }, (_, i) => () => login('probe29', `wrong-${i}`, `10.29.2.${i + 1}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_LIMIT_PER_USERNAME);
    expect(statuses.filter((status) => status === 429)).toHaveLength(ATTEMPTS - LOGIN_LIMIT_PER_USERNAME);
    for (const answer of answers.filter((a) => a.statusCode === 429)) {
      expect(answer.json()).toMatchObject({ status: 429, key: 'error.too_many_attempts' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // Only the ten checked passwords were recorded: the refused ones never reached argon2id.
    expect(await failuresOf('probe29')).toBe(LOGIN_LIMIT_PER_USERNAME);
    // Past the limit even the right password waits, from yet another address.
    expect((await login('probe29', OPERATOR_PASSWORD, '10.29.3.1')).statusCode).toBe(429);
  });

  it('issue 29 item 2: the per-address limit holds too when its failures arrive at once', async () => {
    const address = '10.29.4.1';
    const attempts = LOGIN_LIMIT_PER_IP + 10;
    // Different names, one address (a town hall): the name locks do not serialise them.
    const answers = await Promise.all(
      Array.from({ length: attempts }, (_, i) => login(`colleague29-${i}`, 'wrong', address)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_LIMIT_PER_IP);
    expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - LOGIN_LIMIT_PER_IP);
    // Colleagues behind that address still sign in, and a success leaves no failure behind.
    expect((await login('townhall29', OPERATOR_PASSWORD, address)).statusCode).toBe(200);
    expect(await failuresOf('townhall29')).toBe(0);
  });
});
