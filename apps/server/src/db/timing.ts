import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/** The SQL time of one unit of work (a request): every statement run inside it adds its duration. */
export interface SqlTime {
  ms: number;
}

/** The unit of work a statement belongs to: `sqlTime.run({ ms: 0 }, work)` (platform/metrics.ts). */
export const sqlTime = new AsyncLocalStorage<SqlTime>();

/**
 * How the database's statements go: the ones running or waiting for a connection now, and the
 * listeners told each statement's duration (the metrics' histogram).
 */
export class QueryTiming {
  inFlight = 0;
  private readonly listeners = new Set<(seconds: number) => void>();

  /** Tells `listener` each statement's duration until the returned function is called. */
  listen(listener: (seconds: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts timing one statement; the returned function ends it. */
  start(): () => void {
    // Taken now: a callback of the driver may run outside the request's context.
    const unit = sqlTime.getStore();
    const started = performance.now();
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      const ms = performance.now() - started;
      if (unit) unit.ms += ms;
      for (const listener of this.listeners) listener(ms / 1000);
    };
  }

  /**
   * Replaces `target[method]` (a driver's query function) by one that times each call: a returned
   * promise or a last-argument callback ends it. A streaming statement (node-postgres' Submittable,
   * e.g. a COPY) passes through untimed: its duration is the stream's.
   */
  wrap<T extends object>(target: T, method: keyof T & string): void {
    const original = target[method] as unknown as (...args: unknown[]) => unknown;
    if (typeof original !== 'function') return;
    const timing = this;
    const timed = function (this: unknown, ...args: unknown[]) {
      const first = args[0] as { submit?: unknown } | undefined;
      if (first && typeof first === 'object' && typeof first.submit === 'function') {
        return original.apply(this, args);
      }
      const end = timing.start();
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (...results: unknown[]) => {
          end();
          return (callback as (...a: unknown[]) => unknown)(...results);
        };
      }
      try {
        const result = original.apply(this, args);
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          (result as Promise<unknown>).then(end, end);
        } else if (typeof callback !== 'function') {
          end();
        }
        return result;
      } catch (error) {
        end();
        throw error;
      }
    };
    (target as Record<string, unknown>)[method] = timed;
  }
}
