import { wireDate } from '../../components/form/dates.ts';
import type { FormContract } from '../../components/form/resolver.ts';
import type { PickedTrader } from '../../components/TraderPicker/TraderPicker.tsx';
import { formatDate } from '../../lib/dates.ts';
import { type ProtocolDocument, type SaveDocumentRequest, saveDocumentSchema } from './model.ts';

export interface PublicationRow {
  portal: string;
  reference: string;
  date: string;
  url: string;
}

export interface DocumentFormValues {
  kind: '0' | '1';
  protocolBookId: string;
  documentTypeId: string;
  subjectCategoryId: string;
  subject: string;
  name: string;
  senders: PickedTrader[];
  receivers: PickedTrader[];
  protocolIdSender: string;
  protocolSendDate: string;
  folder: string;
  comments: string;
  publications: PublicationRow[];
}

export function emptyDocument(kind: 0 | 1, documentTypeId = ''): DocumentFormValues {
  return {
    kind: String(kind) as '0' | '1',
    protocolBookId: '',
    documentTypeId,
    subjectCategoryId: '',
    subject: '',
    name: '',
    senders: [],
    receivers: [],
    protocolIdSender: '',
    protocolSendDate: '',
    folder: '',
    comments: '',
    publications: [],
  };
}

const idText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);
const shown = (value: string | null | undefined) => (value ? formatDate(value) : '');

export function toForm(document: ProtocolDocument): DocumentFormValues {
  return {
    kind: document.kind === 1 ? '1' : '0',
    protocolBookId: idText(document.protocolBook?.id),
    documentTypeId: idText(document.documentType?.id),
    subjectCategoryId: idText(document.subjectCategory?.id),
    subject: document.subject ?? '',
    name: document.name ?? '',
    senders: document.senders.map(({ id, fullname, vatnumber }) => ({ id, fullname, vatnumber })),
    receivers: document.receivers.map(({ id, fullname, vatnumber }) => ({ id, fullname, vatnumber })),
    protocolIdSender: document.protocolIdSender ?? '',
    protocolSendDate: shown(document.protocolSendDate),
    folder: document.folder ?? '',
    comments: document.comments ?? '',
    publications: document.publications.map((publication) => ({
      portal: publication.portal,
      reference: publication.reference,
      date: shown(publication.date),
      url: publication.url ?? '',
    })),
  };
}

const blank = (value: string) => value.trim() || null;
const idOrNull = (value: string) => (value ? Number(value) : null);
export function toBody(values: DocumentFormValues, document?: ProtocolDocument): SaveDocumentRequest {
  return {
    kind: values.kind === '1' ? 1 : 0,
    name: blank(values.name),
    subject: values.subject,
    subjectCategoryId: idOrNull(values.subjectCategoryId),
    documentTypeId: idOrNull(values.documentTypeId),
    protocolBookId: idOrNull(values.protocolBookId),
    protocolIdSender: blank(values.protocolIdSender),
    protocolSendDate: wireDate(values.protocolSendDate),
    senders: values.senders.map((trader) => trader.id),
    receivers: values.receivers.map((trader) => trader.id),
    folder: blank(values.folder),
    publications: values.publications.map((row) => ({
      portal: row.portal,
      reference: row.reference,
      date: wireDate(row.date),
      url: row.url.trim() || null,
    })),
    metadata: document?.metadata ?? {},
    comments: blank(values.comments),
  };
}

/** The form is checked with the contract (saveDocumentSchema, the server checks the same) on the body it sends. */
export const documentContract = (
  document?: ProtocolDocument,
): FormContract<DocumentFormValues, SaveDocumentRequest> => ({
  schema: saveDocumentSchema,
  toBody: (values) => toBody(values, document),
});
