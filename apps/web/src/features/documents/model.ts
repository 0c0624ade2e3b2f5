/** The document's shapes, rules and list catalog come from the contracts (packages/contracts/src/protocol.ts). */
export {
  type Attachment,
  type AttachmentFile,
  type AttachmentList,
  type AttachmentUploadResult,
  type DocumentActionAvailability,
  type DocumentActionName,
  type DocumentActionRequest,
  type DocumentActionResult,
  type DocumentLink,
  type DocumentListItem,
  type DocumentTrader,
  documentActionName,
  documentActions,
  documentsCatalog,
  formatProtocolId,
  type HistoryEntry,
  type ProtocolDocument,
  type Publication,
  type SaveDocumentRequest,
  saveDocumentSchema,
  sendMethods,
} from '@protocol/contracts';

/** The five lists: which endpoint, title and default kind (for 'create'). */
export type DocumentListVariant = 'inbox' | 'outbox' | 'all' | 'archived' | 'deleted';

/** A protocol book offered for a kind (GET /api/document/books). */
export interface BookOption {
  id: number;
  descr: string;
  year?: number;
  booktype?: number;
}

/** A row of a settings table used by the form (document types, subject categories, case types). */
export interface SettingOption {
  id: number;
  descr?: string | null;
  name?: string | null;
  code?: string | null;
  seqnr?: number | null;
  active?: boolean | null;
  autonr?: boolean | null;
  printype?: number | null;
}
