import type { Readable } from 'node:stream';
import { errorKeys, formatProtocolId, type Language } from '@protocol/contracts';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { formatDate } from '../../../platform/exports/format.ts';
import { translate } from '../../../platform/i18n.ts';
import { MailDeliveryError, type Mailer } from '../../../platform/mail.ts';
import type { Storage } from '../../../platform/storage.ts';
import { companies } from '../../companies/companies.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { type DocumentRow, TRADER_ROLE } from '../documents/documents.common.ts';
import { documentAttachments, documentTraders } from '../protocol.schema.ts';

/** The send action's e-mail, and the refusals of the actions that move or copy files. */

export const actionErrorKeys = {
  filesOfRegistered: 'error.document_files_registered',
  sendNoReceivers: 'error.document_send_no_receivers',
  sendNoEmail: 'error.document_send_no_email',
  transferTargetDeleted: 'error.transfer_target_deleted',
} as const;

/** What some actions need beyond the database: send reads the files and mails them. */
export interface ActionServices {
  storage: Storage;
  mailer: Mailer;
  /** The asker's language: the e-mail of a send is written in it. */
  language: Language;
}

/** A document's files that are not deleted, in upload order. */
export const liveAttachments = (tx: Tx, documentId: number) =>
  tx
    .select()
    .from(documentAttachments)
    .where(and(eq(documentAttachments.documentId, documentId), isNull(documentAttachments.deletedAt)))
    .orderBy(asc(documentAttachments.id));

/**
 * Send by e-mail: the document goes to the e-mail of every receiver, with its current files, from
 * the installation's sender. Inside the action's transaction and before its status changes, so a
 * refused message leaves the document unsent (502 with the server's answer).
 */
export async function mailDocument(
  tx: Tx,
  row: DocumentRow,
  comments: string | null | undefined,
  services: ActionServices,
) {
  const { mailer, storage, language } = services;
  if (!mailer.configured) throw new AppError(409, errorKeys.mailNotConfigured);
  const receivers = await tx
    .select({ fullname: traders.fullname, email: traders.email })
    .from(documentTraders)
    .innerJoin(traders, eq(traders.id, documentTraders.traderId))
    .where(and(eq(documentTraders.documentId, row.id), eq(documentTraders.role, TRADER_ROLE.receiver)))
    .orderBy(asc(documentTraders.position));
  if (receivers.length === 0) throw new AppError(409, actionErrorKeys.sendNoReceivers);
  const missing = receivers.filter((r) => !r.email?.trim());
  if (missing.length > 0)
    throw new AppError(409, actionErrorKeys.sendNoEmail, {
      names: missing.map((r) => r.fullname ?? '?').join(', '),
    });
  const [company] = await tx
    .select({ title: companies.companytitle, name: companies.companyname })
    .from(companies)
    .where(eq(companies.id, row.companyId));
  const files = await liveAttachments(tx, row.id);
  const attachments: { filename: string; contentType: string; content: Readable }[] = [];
  // Files are streamed to the server, not read into memory; whatever is left is closed at the end.
  const close = () => {
    for (const attachment of attachments) attachment.content.destroy();
  };
  for (const file of files) {
    const stored = await storage.get(file.storageKey);
    if (!stored) {
      close();
      throw new AppError(409, 'error.attachment_missing', { name: file.fileName });
    }
    attachments.push({ filename: file.fileName, contentType: file.contentType, content: stored.stream });
  }
  const t = (key: string, params: Record<string, string | number> = {}) =>
    translate(language, `mail.${key}`, params);
  const protocolId = formatProtocolId(row.protocolNumber, row.protocolYear) ?? '';
  const date = row.protocolDate ? formatDate(row.protocolDate) : '';
  const text = [
    company?.title || company?.name || '',
    '',
    t('greeting', { protocolId, date }),
    t('subjectLine', { subject: row.subject }),
    ...(comments ? ['', comments] : []),
    '',
    files.length > 0 ? t('attachments', { count: files.length }) : t('noAttachments'),
    '',
    '--',
    t('footer', { company: company?.name ?? '' }),
  ].join('\n');
  try {
    return await mailer.send({
      to: receivers.map((r) => (r.email as string).trim()),
      subject: t('subject', { protocolId, subject: row.subject }),
      text,
      attachments,
    });
  } catch (error) {
    if (error instanceof MailDeliveryError)
      throw new AppError(502, errorKeys.mailFailed, { detail: error.detail.slice(0, 300) }, undefined, error);
    throw error;
  } finally {
    close();
  }
}
