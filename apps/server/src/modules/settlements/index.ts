import { utilityDay } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule, type ModuleOptions } from '../../platform/module.ts';
import { addDebtPaidHook } from '../payments/api.ts';
import { seedSettlementCategories } from './categories.ts';
import { settlementsRoutes } from './settlements.routes.ts';
import { activateOnDownPayment, cancelMissedSettlements } from './settlements.service.ts';

/** The daily check of missed instalments (all companies), one job at a time. */
export const CANCEL_MISSED_JOB = 'settlements.cancelMissed';
const DAY_MS = 24 * 60 * 60 * 1000;

const cancelMissed: JobHandler<{ today?: string }> = async ({ db, payload, signal }) => ({
  cancelled: await cancelMissedSettlements(db, payload.today ?? utilityDay(new Date()), signal),
});

// A paid down payment activates its settlement, in the paying transaction.
addDebtPaidHook('settlements', activateOnDownPayment);

const plugin: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  await app.register(settlementsRoutes, options);
  // A listening server queues the check a minute after start, then daily; the key coalesces the
  // queueing of several servers into one job.
  const timers: NodeJS.Timeout[] = [];
  const queue = () =>
    options.db
      .transaction((tx) =>
        options.jobs.enqueue(tx, {
          kind: CANCEL_MISSED_JOB,
          key: CANCEL_MISSED_JOB,
          companyId: null,
          owner: null,
        }),
      )
      .catch((error: unknown) => app.log.warn({ err: error }, 'settlements: the daily check was not queued'));
  app.addHook('onListen', async () => {
    timers.push(setTimeout(queue, 60_000).unref(), setInterval(queue, DAY_MS).unref());
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
};

/** Settlements of debts in instalments (ρυθμίσεις οφειλών). */
export const settlementsModule = defineModule({
  name: 'settlements',
  plugin,
  companyDefaults: (tx, companyId, username) => seedSettlementCategories(tx, companyId, username),
  jobs: { [CANCEL_MISSED_JOB]: cancelMissed as JobHandler<never> },
});
