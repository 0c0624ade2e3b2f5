import type { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

/**
 * Outgoing e-mail through the utility's SMTP server (SMTP_URL, MAIL_FROM), with nodemailer.
 * Platform code: it knows no module. Modules receive it through ModuleOptions.mailer.
 */
export interface Mailer {
  /** False when SMTP_URL is not set: sending answers MailNotConfiguredError. */
  readonly configured: boolean;
  send(message: MailMessage): Promise<SentMail>;
}

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  replyTo?: string;
  attachments?: { filename: string; contentType: string; content: Readable | Buffer }[];
}

export interface SentMail {
  messageId: string;
  /** The addresses the server accepted. */
  accepted: string[];
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('outgoing mail is not configured (SMTP_URL)');
  }
}

/** The server refused or could not be reached; `detail` is its answer, for the log and the operator. */
export class MailDeliveryError extends Error {
  constructor(
    readonly detail: string,
    cause: unknown,
  ) {
    super(`mail not sent: ${detail}`, { cause });
  }
}

export function createMailer(config: Pick<Config, 'mail'>): Mailer {
  const settings = config.mail;
  if (!settings) {
    return {
      configured: false,
      send: async () => {
        throw new MailNotConfiguredError();
      },
    };
  }
  const transport = nodemailer.createTransport(settings.smtpUrl);
  return {
    configured: true,
    async send(message) {
      try {
        const info = await transport.sendMail({ from: settings.from, ...message });
        return { messageId: info.messageId, accepted: info.accepted.map(String) };
      } catch (error) {
        const detail = (error as { response?: string }).response ?? (error as Error).message;
        throw new MailDeliveryError(detail, error);
      }
    },
  };
}
