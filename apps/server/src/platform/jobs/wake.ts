import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../db/client.ts';

/**
 * Workers woken the moment a job is queued, instead of at their next poll (up to a second later):
 * the enqueue NOTIFYs a channel, which PostgreSQL delivers at its transaction's commit, when the job
 * can be claimed; every worker of every node LISTENs on it. The poll stays, for a notification lost
 * with a listening connection.
 */
const CHANNEL = 'protocol_jobs';

/**
 * Notifies the workers at the commit of its transaction that a job is queued: an expression for the
 * statement that queues it (`pg_notify` is NOTIFY as a function), so the wake-up costs no round trip.
 */
export const queuedNotice = sql<string>`pg_notify(${sql.raw(`'${CHANNEL}'`)}, '')`;

type Log = { warn(object: object, message: string): void };

/**
 * Calls `wake` at every notification, until the returned stop. On PostgreSQL a connection of its own
 * (a pooled one would go back to the pool with its LISTEN), opened again a second after it is lost;
 * PGlite delivers its notifications in process.
 */
export function listenForQueued(db: Db, wake: () => void, log?: Log): () => Promise<void> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof PGlite) {
    const listening = client.listen(CHANNEL, wake);
    listening.catch((error: unknown) => log?.warn({ err: error }, 'jobs: listening failed'));
    return async () => {
      await (await listening.catch(() => undefined))?.();
    };
  }
  if (!(client instanceof pg.Pool)) return async () => undefined;
  const pool = client;
  let stopped = false;
  let connection: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = async () => {
    const listener = new pg.Client(pool.options);
    connection = listener;
    listener.on('notification', wake);
    let lost = false;
    listener.on('error', (error) => {
      if (lost) return;
      lost = true;
      log?.warn({ err: error }, 'jobs: the listening connection was lost');
      void listener.end().catch(() => undefined);
      if (connection === listener && !stopped) retry = setTimeout(open, 1000).unref();
    });
    try {
      await listener.connect();
      await listener.query(`LISTEN ${CHANNEL}`);
      // Anything queued while it was not listening.
      wake();
    } catch (error) {
      listener.emit('error', error);
    }
  };
  const opened = open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await opened;
    await connection?.end().catch(() => undefined);
  };
}
