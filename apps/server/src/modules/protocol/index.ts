import {
  ATTACHMENT_MAX_MB_SETTING,
  ATTACHMENT_TYPES_SETTING,
  DEFAULT_ATTACHMENT_MAX_MB,
  DEFAULT_ATTACHMENT_TYPES,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import { defineModule, type ModuleOptions } from '../../platform/module.ts';
import { putGeneralSetting } from '../settings/api.ts';
import { documentActionsRoutes } from './actions/actions.routes.ts';
import { attachmentsRoutes } from './attachments/attachments.routes.ts';
import { bookSummaryRoutes } from './book-summary/book-summary.routes.ts';
import { casesRoutes } from './cases/cases.routes.ts';
import { assigneesRoutes } from './documents/assignees.routes.ts';
import { documentsRoutes } from './documents/documents.routes.ts';
import { seedDemoDocuments } from './documents/documents.seed.ts';
import { receiptRoutes } from './receipt/receipt.routes.ts';
import { protocolSearchSources } from './search.ts';
import { protocolSettingsRoutes } from './settings/protocol-settings.routes.ts';
import { seedCompanyProtocolDefaults } from './settings/protocol-settings.ts';

const plugin: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  await app.register(protocolSettingsRoutes, options);
  await app.register(documentsRoutes, options);
  await app.register(documentActionsRoutes, options);
  await app.register(attachmentsRoutes, options);
  await app.register(assigneesRoutes, options);
  await app.register(receiptRoutes, options);
  await app.register(casesRoutes, options);
  await app.register(bookSummaryRoutes, options);
};

/** The protocol book: documents with their numbers, actions, attachments, cases and the book itself. */
export const protocolModule = defineModule({
  name: 'protocol',
  plugin,
  // Document types, subject categories and case types of a new company.
  companyDefaults: seedCompanyProtocolDefaults,
  demoData: async (tx, { companyId, admin, operators }) => {
    await putGeneralSetting(
      tx,
      companyId,
      ATTACHMENT_MAX_MB_SETTING,
      String(DEFAULT_ATTACHMENT_MAX_MB),
      SYSTEM_USER,
    );
    await putGeneralSetting(
      tx,
      companyId,
      ATTACHMENT_TYPES_SETTING,
      DEFAULT_ATTACHMENT_TYPES.join(', '),
      SYSTEM_USER,
    );
    // Registered in this year's books, one charged to the second operator.
    await seedDemoDocuments(tx, companyId, admin, operators[1]);
  },
  // A trader merge moves the documents' senders and receivers to the survivor.
  references: [{ target: 'traders', table: 'document_traders', column: 'trader_id' }],
  // Attachment rows (deleted ones too, and copies) keep their stored objects from the storage sweep.
  storageColumns: [{ table: 'document_attachments', column: 'storage_key' }],
  search: protocolSearchSources,
});
