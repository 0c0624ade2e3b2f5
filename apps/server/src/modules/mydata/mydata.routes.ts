import {
  type Language,
  MYDATA_DOCUMENTS_ENTITY,
  mydataDocumentListItemSchema,
  mydataSettingsSchema,
  saveMydataSettingsSchema,
  transmissionSchema,
  transmitRequestSchema,
} from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { companyOf, contextOf, principalOf } from '../../platform/auth.ts';
import { translate } from '../../platform/i18n.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { addBillPrintHook } from '../billing/api.ts';
import { addDocumentPrintHook } from '../finance/api.ts';
import { FAKE_AADE_KEY, FAKE_AADE_USER, type FakeAade, startFakeAade } from './fake-aade/fake-aade.ts';
import { mydataDocumentsList } from './mydata.list.ts';
import { type MydataSource, mydataDocuments, mydataTransmissions } from './mydata.schema.ts';
import {
  billsToTransmit,
  cancelBillTransmission,
  cancelTransmission,
  documentsToTransmit,
  getBillTransmission,
  getTransmission,
  readSettings,
  rememberSecretBox,
  saveSettings,
  useLocalAade,
} from './mydata.service.ts';

export const TRANSMIT_JOB = 'mydata.transmit';
export interface TransmitPayload {
  companyId: number;
  documentIds: number[];
  /** Water bills ('bill') or finance documents (absent). */
  source?: MydataSource;
}

const tags = ['mydata'];

/** myDATA: parameters, transmissions (a background job), cancellation, the list by state. */
export const mydataRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, lists, secrets, jobs, config },
) => {
  rememberSecretBox(db, secrets);
  if (config.seedDemo) {
    // A demo installation runs a local stand-in for AADE on loopback once it listens (tests that only
    // inject start none); the demo company sends there (mydata.service.ts, `useLocalAade`).
    let local: FakeAade | undefined;
    app.addHook('onListen', async () => {
      local = await startFakeAade();
      useLocalAade(db, { url: local.url, userId: FAKE_AADE_USER, subscriptionKey: FAKE_AADE_KEY });
      app.log.info(
        `myDATA: the demo company sends to a local stand-in for AADE at ${local.url}, never to the real AADE`,
      );
    });
    app.addHook('onClose', async () => local?.close());
  }
  // A transmitted document or bill prints its MARK, UID and AADE's QR code (a cancelled one its cancellation too).
  addDocumentPrintHook('mydata', (db, documentId, language) =>
    printExtra(db, 'document', documentId, language),
  );
  addBillPrintHook('mydata', (db, billId, language) => printExtra(db, 'bill', billId, language));

  app.get(
    '/mydata/settings',
    {
      config: { permission: 'mydata:read' },
      schema: {
        tags,
        summary: "The company's myDATA parameters (defaults until saved)",
        response: { 200: mydataSettingsSchema },
      },
    },
    async (request) => readSettings(db, secrets, companyOf(request)),
  );

  app.put(
    '/mydata/settings',
    {
      config: { permission: 'mydata:admin' },
      schema: {
        tags,
        summary: "Save the company's myDATA parameters (environment, addresses, branch, mappings)",
        body: saveMydataSettingsSchema,
        response: { 200: mydataSettingsSchema },
      },
    },
    async (request) => saveSettings(db, secrets, principalOf(request), companyOf(request), request.body),
  );

  registerListRoute(app, lists, {
    path: '/mydata/documents/search',
    entityName: MYDATA_DOCUMENTS_ENTITY,
    permission: 'mydata:read',
    list: mydataDocumentsList(db),
    scope: ({ companyId }) => eq(mydataDocuments.companyId, companyId),
    tags,
    summary:
      'Finalized documents by transmission state: not sent, sent, failed, uncertain, cancelled (list engine)',
    item: mydataDocumentListItemSchema,
  });

  app.get(
    '/mydata/documents/:id',
    {
      config: { permission: 'mydata:read' },
      schema: {
        tags,
        summary: "A document's transmission: state, MARK, UID, QR URL, AADE's errors",
        params: idParams,
        response: { 200: transmissionSchema },
      },
    },
    async (request) => getTransmission(db, contextOf(request).companyId, request.params.id),
  );

  app.get(
    '/mydata/bills/:id',
    {
      config: { permission: 'mydata:read' },
      schema: {
        tags,
        summary: "A water bill's transmission: state, MARK, UID, QR URL, AADE's errors",
        params: idParams,
        response: { 200: transmissionSchema },
      },
    },
    async (request) => getBillTransmission(db, companyOf(request), request.params.id),
  );

  app.post(
    '/mydata/transmissions',
    {
      config: { permission: 'mydata:write' },
      schema: {
        tags,
        summary:
          "Send one document or bill, a day's pending documents or bills, or a run's bills, as a background job (progress on /api/jobs)",
        body: transmitRequestSchema,
        response: {
          202: z.object({ jobId: z.number().int(), documents: z.number().int(), created: z.boolean() }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const companyId = companyOf(request);
      const body = request.body;
      const bills = 'billId' in body || 'billIds' in body || 'billDay' in body;
      const documentIds = bills
        ? await billsToTransmit(db, companyId, body)
        : await documentsToTransmit(db, companyId, body);
      const key =
        'documentId' in body
          ? `doc:${body.documentId}`
          : 'day' in body
            ? `day:${body.day}`
            : 'billId' in body
              ? `bill:${body.billId}`
              : 'billDay' in body
                ? `billDay:${body.billDay}`
                : `bills:${documentIds.join(',').slice(0, 200)}:${documentIds.length}`;
      const { job, created } = await db.transaction((tx) =>
        jobs.enqueue(tx, {
          kind: TRANSMIT_JOB,
          key: `mydata:${companyId}:${key}`,
          companyId,
          owner: principal.userId,
          payload: {
            companyId,
            documentIds,
            ...(bills ? { source: 'bill' } : {}),
          } satisfies TransmitPayload,
        }),
      );
      return reply.status(202).send({ jobId: job.id, documents: documentIds.length, created });
    },
  );

  app.post(
    '/mydata/documents/:id/cancel',
    {
      config: { permission: 'mydata:write' },
      schema: {
        tags,
        summary: 'Cancel a sent document at AADE (CancelInvoice); keeps the cancellation MARK',
        params: idParams,
        response: { 200: transmissionSchema },
      },
    },
    async (request) => cancelTransmission(db, contextOf(request).companyId, request.params.id),
  );

  app.post(
    '/mydata/bills/:id/cancel',
    {
      config: { permission: 'mydata:write' },
      schema: {
        tags,
        summary: 'Cancel a sent water bill at AADE (CancelInvoice), unless paid; keeps the cancellation MARK',
        params: idParams,
        response: { 200: transmissionSchema },
      },
    },
    async (request) => cancelBillTransmission(db, companyOf(request), request.params.id),
  );
};

async function printExtra(db: Db, source: MydataSource, documentId: number, language: Language) {
  const [row] = await db
    .select()
    .from(mydataTransmissions)
    .where(and(eq(mydataTransmissions.source, source), eq(mydataTransmissions.documentId, documentId)));
  if (!row?.mark) return null;
  const t = (key: string) => translate(language, `mydata.pdf.${key}`);
  const lines: [string, string][] = [
    [t('mark'), row.mark],
    [t('uid'), row.uid],
  ];
  if (row.authenticationCode) lines.push([t('authenticationCode'), row.authenticationCode]);
  if (row.cancellationMark) lines.push([t('cancellationMark'), row.cancellationMark]);
  return { lines, qr: row.qrUrl };
}
