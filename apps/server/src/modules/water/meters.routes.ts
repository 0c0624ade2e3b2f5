import {
  consumerTransactionSchema,
  installMeterSchema,
  lifecycleTransactionSchema,
  meterInstallationSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { addTransaction, installMeter, listInstallations, listTransactions } from './meters.service.ts';

const tags = ['water'];

/** A consumer's meters and lifecycle transactions (spec §3 transaction kinds 11–15, 99; extra charge 5). */
export const metersRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/protocol/consumers/:id/meters',
    {
      config: { permission: 'consumers:read' },
      schema: {
        tags,
        summary: "The consumer's meter history, the meter on first",
        params: idParams,
        response: { 200: z.array(meterInstallationSchema) },
      },
    },
    async (request) => listInstallations(db, companyOf(request), request.params.id),
  );

  app.post(
    '/protocol/consumers/:id/meters',
    {
      config: { permission: 'consumers:write' },
      schema: {
        tags,
        summary: 'Installs the first meter of a consumer that has none on (a swap is transaction 15)',
        params: idParams,
        body: installMeterSchema,
        response: { 200: z.array(meterInstallationSchema) },
      },
    },
    async (request) =>
      installMeter(db, principalOf(request), companyOf(request), request.params.id, request.body, request.id),
  );

  app.get(
    '/protocol/consumers/:id/transactions',
    {
      config: { permission: 'consumers:read' },
      schema: {
        tags,
        summary: "The consumer's timeline: lifecycle transactions and extra charges, latest first",
        params: idParams,
        response: { 200: z.array(consumerTransactionSchema) },
      },
    },
    async (request) => listTransactions(db, companyOf(request), request.params.id),
  );

  app.post(
    '/protocol/consumers/:id/transactions',
    {
      config: { permission: 'consumers:write' },
      schema: {
        tags,
        summary: 'Records a lifecycle transaction (stop, reconnect, pull off, replacement, meter swap, misc)',
        params: idParams,
        body: lifecycleTransactionSchema,
        response: { 200: z.array(consumerTransactionSchema) },
      },
    },
    async (request) =>
      addTransaction(
        db,
        principalOf(request),
        companyOf(request),
        request.params.id,
        request.body,
        request.id,
      ),
  );
};
