import type { AadeError } from '@protocol/contracts';
import { XmlDocument, type XmlNode } from 'libxml2-wasm';

/**
 * AADE's answers: `ResponseDoc` (response-v2.0.1.xsd, no namespace) and `RequestedDoc` (invoices
 * AADE holds, in the invoice namespace). Read with libxml2's XPath; built here for the fake too.
 */

export const INVOICE_NS = 'http://www.aade.gr/myDATA/invoice/v1.0';
const ns = { i: INVOICE_NS };

export interface AadeResponse {
  index: number;
  statusCode: string;
  invoiceUid: string | null;
  invoiceMark: string | null;
  cancellationMark: string | null;
  qrUrl: string | null;
  authenticationCode: string | null;
  errors: AadeError[];
}

const text = (node: XmlNode, xpath: string) => node.get(xpath, ns)?.content.trim() || null;

/** Parses `xml` and hands its root to `read`; the document is freed afterwards. */
export function readXml<T>(xml: string, read: (root: XmlDocument) => T): T {
  const doc = XmlDocument.fromString(xml);
  try {
    return read(doc);
  } finally {
    doc.dispose();
  }
}

export function parseResponseDoc(xml: string): AadeResponse[] {
  return readXml(xml, (doc) =>
    doc.find('/ResponseDoc/response').map((r, at) => ({
      index: Number(text(r, 'index') ?? at + 1),
      statusCode: text(r, 'statusCode') ?? 'TechnicalError',
      invoiceUid: text(r, 'invoiceUid'),
      invoiceMark: text(r, 'invoiceMark'),
      cancellationMark: text(r, 'cancellationMark'),
      qrUrl: text(r, 'qrUrl'),
      authenticationCode: text(r, 'authenticationCode'),
      errors: r
        .find('errors/error')
        .map((e) => ({ code: text(e, 'code') ?? '', message: text(e, 'message') ?? '' })),
    })),
  );
}

export interface RequestedPage {
  invoices: { uid: string; mark: string; qrUrl: string | null }[];
  /** The continuation token's next partition key: ask again from it, or null at the end. */
  next: string | null;
}

export function parseRequestedDoc(xml: string): RequestedPage {
  return readXml(xml, (doc) => ({
    invoices: doc.find('/i:RequestedDoc/i:invoicesDoc/i:invoice', ns).map((inv) => ({
      uid: text(inv, 'i:uid') ?? '',
      mark: text(inv, 'i:mark') ?? '',
      qrUrl: text(inv, 'i:qrCodeUrl'),
    })),
    next: doc.get('/i:RequestedDoc/i:continuationToken/i:nextPartitionKey', ns)?.content.trim() || null,
  }));
}

const escapeXml = (value: string) =>
  value.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);
const el = (name: string, value: string | number | null) =>
  value === null ? '' : `<${name}>${escapeXml(String(value))}</${name}>`;

export function responseDocXml(responses: readonly Omit<AadeResponse, 'authenticationCode'>[]): string {
  const body = responses
    .map(
      (r) =>
        `<response>${el('index', r.index)}${
          r.errors.length > 0
            ? `<errors>${r.errors.map((e) => `<error>${el('message', e.message)}${el('code', e.code)}</error>`).join('')}</errors>`
            : `${el('invoiceUid', r.invoiceUid)}${el('invoiceMark', r.invoiceMark)}${el('cancellationMark', r.cancellationMark)}${el('qrUrl', r.qrUrl)}`
        }${el('statusCode', r.statusCode)}</response>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><ResponseDoc>${body}</ResponseDoc>`;
}

export function requestedDocXml(page: RequestedPage): string {
  const token = page.next
    ? `<continuationToken>${el('nextPartitionKey', page.next)}${el('nextRowKey', page.next)}</continuationToken>`
    : '';
  const invoices = page.invoices
    .map((i) => `<invoice>${el('uid', i.uid)}${el('mark', i.mark)}${el('qrCodeUrl', i.qrUrl)}</invoice>`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><RequestedDoc xmlns="${INVOICE_NS}">${token}<invoicesDoc>${invoices}</invoicesDoc></RequestedDoc>`;
}
