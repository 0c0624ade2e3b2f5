import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { PickedTrader } from '../../components/TraderPicker/TraderPicker.tsx';
import { contractResolver } from '../../lib/contractResolver.ts';
import { formatDate } from '../../lib/dates.ts';
import { type ProtocolDocument, type SaveDocumentRequest, saveDocumentSchema } from './model.ts';

dayjs.extend(customParseFormat);

/** Spec §5: dates are typed and shown DD/MM/YYYY and sent YYYY-MM-DD. */
export const SHOWN_DATE = 'DD/MM/YYYY';

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

/** Every form field the server may name in a field error. */
export const FORM_FIELDS: readonly string[] = [
  'kind',
  'protocolBookId',
  'documentTypeId',
  'subjectCategoryId',
  'subject',
  'name',
  'senders',
  'receivers',
  'protocolIdSender',
  'protocolSendDate',
  'folder',
  'comments',
];

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
/** DD/MM/YYYY → YYYY-MM-DD; an unreadable date is sent as typed, for the schema to refuse. */
const wireDate = (value: string) => {
  const text = value.trim();
  if (!text) return null;
  const date = dayjs(text, SHOWN_DATE, true);
  return date.isValid() ? date.format('YYYY-MM-DD') : text;
};

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

/** Field errors nested by path ('publications.0.date'), the shape react-hook-form reads. */
function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, error] of Object.entries(flat)) {
    const parts = path.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      node[part] = (node[part] as Record<string, unknown> | undefined) ?? {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1] as string] = error;
  }
  return out;
}

const contractCheck = contractResolver(saveDocumentSchema);

/**
 * The form's check is the contract's (saveDocumentSchema, the server checks the same) run on the
 * body the form would send; a date typed in another shape is reported as DD/MM/YYYY.
 */
export function documentResolver(document?: ProtocolDocument): Resolver<DocumentFormValues> {
  return async (values, context, options) => {
    const body = toBody(values, document);
    const result = await contractCheck(
      body as never,
      context,
      options as unknown as Parameters<typeof contractCheck>[2],
    );
    const errors = result.errors as Record<string, { type: string; message: string }>;
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    for (const [path, error] of Object.entries(errors)) {
      if (
        (path === 'protocolSendDate' || /^publications\.\d+\.date$/.test(path)) &&
        error.message.startsWith('validation.date')
      ) {
        error.message = 'validation.date_shown';
      }
    }
    return { values: {}, errors: nest(errors) as FieldErrors<DocumentFormValues> };
  };
}
