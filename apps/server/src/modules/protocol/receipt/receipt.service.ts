import type { Readable } from 'node:stream';
import { formatProtocolId, type Language, UTILITY_TIME_ZONE } from '@protocol/contracts';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { auditLog } from '../../../platform/audit.schema.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError } from '../../../platform/errors.ts';
import { formatDate, formatDateTime } from '../../../platform/exports/format.ts';
import { translate } from '../../../platform/i18n.ts';
import {
  createPdf,
  drawFields,
  drawFooter,
  drawRule,
  PDF_COLORS,
  PDF_FONTS,
} from '../../../platform/pdf/index.ts';
import { companies } from '../../companies/companies.schema.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { users } from '../../users/users.schema.ts';
import { type DocumentRow, fullNameSql, TRADER_ROLE } from '../documents/documents.common.ts';
import { visibleDocumentRow } from '../documents/visibility.ts';
import { documentAttachments, documents, documentTraders, documentTypes } from '../protocol.schema.ts';

export const receiptErrorKeys = { notRegistered: 'error.document_not_registered' } as const;

/** What a registration receipt shows (one page per copy). */
export interface ReceiptData {
  companyName: string;
  book: string;
  protocolId: string;
  registeredAt: Date;
  kind: number;
  subject: string;
  senders: string[];
  receivers: string[];
  protocolIdSender: string | null;
  protocolSendDate: string | null;
  attachments: number;
  registeredBy: string;
  copies: number;
}

/** Copies of a receipt: the type's setting, kept in 1–9. */
const clampCopies = (copies: number | null | undefined) => Math.min(9, Math.max(1, copies ?? 1));

/**
 * The receipt of a registered document the operator may see (404 otherwise; 409 when unregistered).
 * The operator who registered it is the one of the audit line 'registered' (the creator when absent).
 */
export async function receiptData(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
): Promise<ReceiptData> {
  const row: DocumentRow = await visibleDocumentRow(db, principal, companyId, id);
  if (row.protocolNumber === null || row.protocolDate === null) {
    throw new AppError(409, receiptErrorKeys.notRegistered, {});
  }
  const [info] = await db
    .select({
      companyName: companies.companytitle,
      companyShort: companies.companyname,
      book: protocolBooks.descr,
      copies: documentTypes.copies,
    })
    .from(documents)
    .innerJoin(companies, eq(companies.id, documents.companyId))
    .leftJoin(protocolBooks, eq(protocolBooks.id, documents.protocolBookId))
    .leftJoin(documentTypes, eq(documentTypes.id, documents.documentTypeId))
    .where(eq(documents.id, id));
  const [people, files, registration, creator] = await Promise.all([
    db
      .select({ role: documentTraders.role, fullname: traders.fullname })
      .from(documentTraders)
      .innerJoin(traders, eq(traders.id, documentTraders.traderId))
      .where(eq(documentTraders.documentId, id))
      .orderBy(asc(documentTraders.role), asc(documentTraders.position)),
    db
      .select({ id: documentAttachments.id })
      .from(documentAttachments)
      .where(and(eq(documentAttachments.documentId, id), isNull(documentAttachments.deletedAt))),
    db
      .select({ username: auditLog.username, fullName: fullNameSql(users) })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.userId))
      .where(
        and(
          eq(auditLog.entity, 'document'),
          eq(auditLog.entityId, String(id)),
          eq(auditLog.action, 'registered'),
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(1),
    row.createUserId === null
      ? Promise.resolve([])
      : db
          .select({ username: users.username, fullName: fullNameSql(users) })
          .from(users)
          .where(eq(users.id, row.createUserId)),
  ]);
  const who = registration[0] ?? creator[0];
  const name = (role: number) =>
    people
      .filter((p) => p.role === role)
      .map((p) => p.fullname ?? '')
      .filter(Boolean);
  return {
    companyName: info?.companyName || info?.companyShort || '',
    book: info?.book ?? '',
    protocolId: formatProtocolId(row.protocolNumber, row.protocolYear) ?? '',
    registeredAt: new Date(row.protocolDate),
    kind: row.kind,
    subject: row.subject,
    senders: name(TRADER_ROLE.sender),
    receivers: name(TRADER_ROLE.receiver),
    protocolIdSender: row.protocolIdSender,
    protocolSendDate: row.protocolSendDate,
    attachments: files.length,
    registeredBy: who?.fullName || who?.username || row.createuser || '',
    copies: clampCopies(info?.copies),
  };
}

export function receiptFileName(language: Language, data: ReceiptData): string {
  return `${translate(language, 'receipt.fileName')}_${data.protocolId.replace('/', '-')}.pdf`;
}

const MARGIN = 56;
const LABEL_WIDTH = 170;

/**
 * The registration receipt: A4 portrait, one page per copy ("Αντίτυπο 1 από 2"), DejaVu (Greek),
 * streamed. Nothing here touches the database: the data is read before.
 */
export function renderReceiptPdf(data: ReceiptData, language: Language): Readable {
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(language, `receipt.${key}`, params);
  const title = t('title');
  const { doc, stream } = createPdf({
    language,
    title: `${title} ${data.protocolId}`,
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
    autoFirstPage: false,
  });

  const fields: [string, string][] = [
    [t('company'), data.companyName],
    [t('book'), data.book],
    [t('number'), data.protocolId],
    [t('date'), formatDateTime(data.registeredAt, UTILITY_TIME_ZONE)],
    [t('kind'), translate(language, `documents.kind.${data.kind}`)],
    [t('subject'), data.subject],
    [t('senders'), data.senders.join(', ') || '—'],
    [t('receivers'), data.receivers.join(', ') || '—'],
    [t('senderNumber'), data.protocolIdSender || '—'],
    [t('senderDate'), data.protocolSendDate ? formatDate(data.protocolSendDate) : '—'],
    [t('attachments'), String(data.attachments)],
    [t('registeredBy'), data.registeredBy || '—'],
  ];

  for (let copy = 1; copy <= data.copies; copy++) {
    doc.addPage();
    const width = doc.page.width - 2 * MARGIN;
    doc.font(PDF_FONTS.regular).fontSize(9).fillColor(PDF_COLORS.muted);
    doc.text(data.companyName, MARGIN, MARGIN, { width });
    doc.moveDown(1.2);
    doc.font(PDF_FONTS.bold).fontSize(17).fillColor(PDF_COLORS.text).text(title, { width, align: 'center' });
    doc.moveDown(0.3);
    doc.font(PDF_FONTS.bold).fontSize(22).text(data.protocolId, { width, align: 'center' });
    doc.moveDown(0.2);
    doc
      .font(PDF_FONTS.regular)
      .fontSize(9.5)
      .fillColor(PDF_COLORS.muted)
      .text(t('copy', { n: copy, m: data.copies }), { width, align: 'center' });
    doc.moveDown(1);
    drawRule(doc, doc.y);
    const below = drawFields(doc, fields, doc.y + 10, { labelWidth: LABEL_WIDTH });
    drawRule(doc, below);
    doc.font(PDF_FONTS.regular).fontSize(10).fillColor(PDF_COLORS.muted);
    doc.text(t('stamp'), MARGIN + width / 2, below + 40, { width: width / 2, align: 'center' });
    drawFooter(doc, {
      right: t('printed', { at: formatDateTime(new Date(), UTILITY_TIME_ZONE) }),
      fromBottom: MARGIN + 24,
    });
  }
  doc.end();
  return stream;
}
