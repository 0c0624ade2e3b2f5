import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * The company wall: PostgreSQL row-level security on every company-owned table (migration
 * 0045_company_wall). A statement run for a company (a signed-in request's company in use, a job's
 * company) runs as the role `protocol_app` with `app.company_id` set, so a query that forgets its
 * company condition finds none of another company's rows, and a write of one is refused. Outside a
 * company (start-up, migrations, the jobs' queue, sign-in, public routes) statements run as the
 * connecting user, whom the policies do not bind; inside one, `outsideCompanyWall` is the only way
 * across, counted by reason.
 */
const wall = new AsyncLocalStorage<number>();
/** The store of work that reads the same behind any wall: it takes a connection as it is. */
const ANY = 0;

/**
 * Runs `work` for `companyId`: its statements see and write only that company's rows. Awaited inside,
 * so a query builder `work` returns (Drizzle's run when awaited) runs behind the wall too.
 */
export const behindCompanyWall = <T>(companyId: number, work: () => PromiseLike<T> | T): Promise<T> =>
  wall.run(companyId, async () => await work());

/** `source`'s items, each read behind the wall of `companyId` (a list streamed into an export). */
export async function* eachBehindCompanyWall<T>(
  companyId: number,
  source: AsyncIterable<T>,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await behindCompanyWall(companyId, () => iterator.next());
      if (step.done) return;
      yield step.value;
    }
  } finally {
    await behindCompanyWall(companyId, async () => iterator.return?.());
  }
}

/** A request's hook: `next` (the rest of the request) runs behind the wall of `companyId`. */
export const continueBehindCompanyWall = (companyId: number, next: () => void): void =>
  wall.run(companyId, next);

/**
 * Runs `work` on a connection behind whatever wall it stands: for statements that only call the
 * functions that run as their owner (an operator's session, `live_session`), so a connection need
 * not change its wall for them.
 */
export const behindAnyCompanyWall = <T>(work: () => PromiseLike<T> | T): Promise<T> =>
  wall.run(ANY, async () => await work());

/** The company the current work runs for, if any. */
export const companyBehindWall = (): number | undefined => {
  const store = wall.getStore();
  return store === ANY ? undefined : store;
};

/** Times the wall was crossed, by reason (the metrics read them). */
export const wallCrossings = new Map<string, number>();

/**
 * Runs `work` outside the company wall, for the few reads whose point is to cross companies (an
 * operator's session and their companies): the reason is counted.
 */
export async function outsideCompanyWall<T>(reason: string, work: () => PromiseLike<T> | T): Promise<T> {
  if (companyBehindWall() === undefined) return wall.exit(async () => await work());
  wallCrossings.set(reason, (wallCrossings.get(reason) ?? 0) + 1);
  return wall.exit(async () => await work());
}

/** The role the policies bind (migration 0045); the connecting user is not bound by them. */
const WALL_ROLE = 'protocol_app';
/** A connection's session: '' outside the wall, else the company id; null: as it stands. */
type Session = string;
const sessionOf = (): Session | null => {
  const store = wall.getStore();
  return store === ANY ? null : String(store ?? '');
};
const setWall = (local: boolean) =>
  `SELECT set_config('role', $1, ${local}), set_config('app.company_id', $2, ${local})`;
const wallParams = (session: Session) => [session ? WALL_ROLE : 'none', session];

/** Whether this database can raise the wall: the role exists and the connecting user may take it. */
export async function wallAvailable(query: (sql: string) => Promise<{ rows: unknown[] }>): Promise<boolean> {
  const { rows } = await query(
    `SELECT 1 FROM pg_roles WHERE rolname = '${WALL_ROLE}' AND pg_has_role(current_user, oid, 'MEMBER')`,
  );
  return rows.length > 0;
}

/** The switch that turns the wall on once the database is migrated and the role is usable. */
export interface WallSwitch {
  on: boolean;
}

/**
 * node-postgres: a connection takes the wall of the work that checks it out (a plain statement's or
 * a transaction's), once: its session keeps it until work of another company, or none, takes it.
 */
export function wallOnPool(pool: pg.Pool, state: WallSwitch): void {
  const sessions = new WeakMap<pg.PoolClient, Session>();
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const walled = async (session: Session | null): Promise<pg.PoolClient> => {
    const client = await connect();
    if (session === null || (sessions.get(client) ?? '') === session) return client;
    try {
      await client.query(setWall(false), wallParams(session));
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    sessions.set(client, session);
    return client;
  };
  // pg-pool's own `query` checks out through `connect` with a callback.
  pool.connect = ((
    callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void,
  ) => {
    const session = state.on ? sessionOf() : '';
    const ready = walled(session);
    if (!callback) return ready;
    ready.then(
      (client) => callback(undefined, client, () => client.release()),
      (error: Error) => callback(error),
    );
    return undefined;
  }) as typeof pool.connect;
}

/**
 * PGlite has one session for every caller: a plain statement sets the session's wall first when it
 * differs (the pair under one lock, so no other plain statement runs between them); a transaction
 * sets its own, local to it, so one that runs between such a pair leaves the session as it was.
 */
export function wallOnPglite(client: PGlite, state: WallSwitch): void {
  let session: Session = '';
  let tail: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
  const query = client.query.bind(client);
  for (const method of ['query', 'exec'] as const) {
    const original = client[method].bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      // Without the wall a statement needs neither the session's wall nor the lock that guards it.
      if (!state.on) return original(...args);
      const wanted = sessionOf();
      return serially(async () => {
        if (wanted !== null && wanted !== session) {
          session = '?';
          await query(setWall(false), wallParams(wanted));
          session = wanted;
        }
        return original(...args);
      });
    };
  }
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) => {
    const wanted = state.on ? sessionOf() : '';
    return transaction(async (tx) => {
      if (state.on && wanted !== null) await tx.query(setWall(true), wallParams(wanted));
      return callback(tx);
    });
  };
}
