// CPU time a bench's processes spend, read from /proc (Linux): unlike a rate, it changes little with
// what else loads the machine, so before/after comparisons on a busy machine stay meaningful.
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function stat(pid: number): { ppid: number; cpuMs: number; reapedMs: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may hold spaces: state, ppid, … utime (14), stime (15),
    // and cutime (16), cstime (17): the time of its children that have ended.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ms = (a: number, b: number) => ((Number(fields[a]) + Number(fields[b])) * 1000) / TICKS_PER_SECOND;
    return { ppid: Number(fields[1]), cpuMs: ms(11, 12), reapedMs: ms(13, 14) };
  } catch {
    return undefined;
  }
}

/** The CPU milliseconds so far of one process (0 once it has gone). */
export const processCpuMs = (pid: number): number => stat(pid)?.cpuMs ?? 0;

function childrenOf(parent: number): number[] {
  // The kernel's list where it keeps one (a read, not a scan of every process: a bench reads it
  // around every sample).
  try {
    return readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    // not kept by this kernel
  }
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => stat(pid)?.ppid === parent);
}

export interface CpuMeter {
  /**
   * CPU milliseconds so far of the server processes, of the PostgreSQL server (all its processes) and
   * of this process (the load generator and the raw SQL client).
   */
  read(): { server: number; database: number; bench: number };
}

/**
 * Meters the Protocol servers this process spawned (its children running main.ts, one or several
 * nodes; none when the bench runs the app itself) and the PostgreSQL server behind `pool` (its
 * postmaster's children: backends, WAL writer, checkpointer…). Undefined where /proc cannot tell (not
 * Linux, or a database on another machine).
 */
export async function cpuMeter(pool: pg.Pool): Promise<CpuMeter | undefined> {
  const backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
  const postmaster = backend === undefined ? undefined : stat(backend)?.ppid;
  const servers = childrenOf(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.ts');
    } catch {
      return false;
    }
  });
  if (postmaster === undefined) return undefined;
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + (stat(pid)?.cpuMs ?? 0), 0);
  return {
    read: () => ({
      server: sum(servers),
      bench: selfCpuMs(),
      // Backends that ended (an idle pool's) count on in the postmaster's reaped time: the sum only grows.
      database: sum([postmaster, ...childrenOf(postmaster)]) + (stat(postmaster)?.reapedMs ?? 0),
    }),
  };
}

/** This process's CPU milliseconds (the load generator's, and the raw SQL client's). */
function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** The CPU milliseconds per operation that `run` cost, split by process, beside what it answers. */
export async function perOperation<T>(
  meter: CpuMeter | undefined,
  operations: number | (() => number),
  run: () => Promise<T>,
): Promise<{ result: T; serverMs?: number; databaseMs?: number; benchMs?: number }> {
  const before = meter?.read();
  const result = await run();
  const after = meter?.read();
  if (!before || !after) return { result };
  const count = typeof operations === 'number' ? operations : operations();
  return {
    result,
    serverMs: (after.server - before.server) / count,
    databaseMs: (after.database - before.database) / count,
    benchMs: (after.bench - before.bench) / count,
  };
}
