import {
  balanceLookupSchema,
  type Debt,
  normalizeVatNumber,
  type PublicBalance,
  paymentsErrors,
  publicBalanceSchema,
} from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { countPublicAttempt } from '../forms/api.ts';
import { traders } from '../traders/traders.schema.ts';
import { consumerCodeIs, waterConsumers } from '../water/consumers.schema.ts';
import { openDebtRows, sumOf, withInterest } from './debts.ts';

/**
 * The citizen's balance lookup (no sign-in): consumer code AND the owner's ΑΦΜ, rate-limited per
 * address with the public forms' limiter. A wrong code and a wrong ΑΦΜ get the same answer, and a
 * match shows only the open bills (description, due date, amount, RF code), nothing of the person.
 */
export async function lookupBalance(
  db: Db,
  ip: string,
  request: { code: string; vatNumber: string },
): Promise<PublicBalance> {
  await countPublicAttempt(db, ip);
  const vat = normalizeVatNumber(request.vatNumber);
  return db.transaction(async (tx) => {
    const matches = await tx
      .select({ id: waterConsumers.id, companyId: waterConsumers.companyId })
      .from(waterConsumers)
      .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
      .where(and(eq(traders.vatnumber, vat), consumerCodeIs(request.code)))
      .limit(5);
    const debts: Debt[] = [];
    for (const match of matches) {
      debts.push(
        ...(await withInterest(tx, await openDebtRows(tx, match.companyId, [match.id]), null, '1970-01-01')),
      );
    }
    if (debts.length === 0) throw new AppError(404, paymentsErrors.noDebts);
    return {
      bills: debts.map((d) => ({
        description: d.description,
        dueDate: d.dueDate,
        remaining: d.remaining,
        rfCode: d.rfCode,
      })),
      due: sumOf(debts.map((d) => d.remaining)),
    };
  });
}

export const publicBalanceRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.post(
    '/public/balance',
    {
      config: { public: true },
      schema: {
        tags: ['payments'],
        summary:
          "A consumer's open bills by consumer code and ΑΦΜ together (no sign-in, rate-limited; the same 404 for any mismatch)",
        body: balanceLookupSchema,
        response: { 200: publicBalanceSchema },
      },
    },
    async (request) => lookupBalance(db, request.ip, request.body),
  );
};
