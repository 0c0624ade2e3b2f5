import type { Readable } from 'node:stream';
import {
  type FileRef,
  type FormStructure,
  formatMoney,
  inputElements,
  type Language,
  type SubmissionValues,
  UTILITY_TIME_ZONE,
} from '@protocol/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { formatDateTime } from '../../platform/exports/format.ts';
import { translate } from '../../platform/i18n.ts';
import type { Mailer } from '../../platform/mail.ts';
import { createPdf, drawFields, drawRule, PDF_COLORS, PDF_FONTS } from '../../platform/pdf/index.ts';
import type { Applicant } from '../traders/api.ts';

/*
 * What a submission reads as, outside the browser: its PDF (attached to the protocol document and
 * printed from the desk) and its e-mails. Every value is written as plain text.
 */

export interface SubmissionPrint {
  companyName: string;
  formTitle: string;
  reference: string;
  submittedAt: Date;
  protocolNumber: string | null;
  fee: string | null;
  rfCode: string | null;
  structure: FormStructure;
  values: SubmissionValues;
}

/** Each shown field as label and readable value (a choice by its label, files by name). */
export function readableValues(structure: FormStructure, values: SubmissionValues, language: Language) {
  const t = (key: string) => translate(language, `onlineForms.pdf.${key}`);
  return inputElements(structure)
    .map(({ element }) => {
      const name = element.options.field ?? '';
      const value = values[name];
      if (value === undefined) return null;
      const label = element.options.label || name;
      const itemLabel = (v: string) => element.items.find((i) => i.value === v)?.label ?? v;
      let text: string;
      if (typeof value === 'boolean') text = value ? t('yes') : t('no');
      else if (typeof value === 'string')
        text = ['select', 'radio'].includes(element.type) ? itemLabel(value) : value;
      else
        text = (value as (string | FileRef)[])
          .map((v) => (typeof v === 'string' ? itemLabel(v) : v.name))
          .join(', ');
      return [label, text] as [string, string];
    })
    .filter((pair): pair is [string, string] => pair !== null);
}

/**
 * Who applied, from the fields' names and types: the first ΑΦΜ and e-mail fields, and fields named
 * fullname, lastname, firstname, phone/mobile, address, city, zipcode.
 */
export function applicantOf(structure: FormStructure, values: SubmissionValues): Applicant {
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const ofType = (type: string) =>
    inputElements(structure)
      .map((e) => e.element)
      .filter((e) => e.type === type && e.options.field)
      .map((e) => text(e.options.field as string))
      .find((v) => v !== null) ?? null;
  const lastname = text('lastname');
  const firstname = text('firstname');
  return {
    vatnumber: ofType('afm') ?? text('vatnumber'),
    email: ofType('email') ?? text('email'),
    lastname,
    firstname,
    fullname: text('fullname') ?? ([lastname, firstname].filter(Boolean).join(' ') || null),
    phone: text('mobile') ?? text('phone') ?? ofType('phone'),
    address: text('address'),
    city: text('city'),
    zipcode: text('zipcode'),
  };
}

const MARGIN = 56;

export function renderSubmissionPdf(print: SubmissionPrint, language: Language): Readable {
  const t = (key: string) => translate(language, `onlineForms.pdf.${key}`);
  const { doc, stream } = createPdf({
    language,
    title: `${print.formTitle} ${print.reference}`,
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
  });
  doc
    .font(PDF_FONTS.regular)
    .fontSize(10)
    .fillColor(PDF_COLORS.muted)
    .text(print.companyName, MARGIN, MARGIN);
  doc
    .font(PDF_FONTS.bold)
    .fontSize(16)
    .fillColor(PDF_COLORS.text)
    .text(print.formTitle, MARGIN, MARGIN + 18);
  let y = doc.y + 8;
  drawRule(doc, y);
  const header: [string, string][] = [
    [t('reference'), print.reference],
    [t('submittedAt'), formatDateTime(print.submittedAt, UTILITY_TIME_ZONE)],
  ];
  if (print.protocolNumber) header.push([t('protocolNumber'), print.protocolNumber]);
  if (print.fee) header.push([t('fee'), `${formatMoney(print.fee, language)} €`]);
  if (print.rfCode) header.push([t('rfCode'), print.rfCode]);
  y = drawFields(doc, header, y + 10, { labelWidth: 170 });
  drawRule(doc, y);
  drawFields(doc, readableValues(print.structure, print.values, language), y + 10, { labelWidth: 170 });
  doc.end();
  return stream;
}

/**
 * After the commit: save method 1 mails the submission to the form's address; the citizen gets a
 * confirmation with the reference and protocol number. A failed mail is logged: the submission stands.
 */
export async function mailSubmission(
  ctx: { mailer: Mailer; log: FastifyBaseLogger },
  form: { saveMethod: number; mailTo: string | null; title: string },
  print: SubmissionPrint,
  citizenEmail: string | null,
  language: Language,
): Promise<void> {
  if (!ctx.mailer.configured) return;
  const t = (key: string, params: Record<string, string | number> = {}) =>
    translate(language, `onlineForms.mail.${key}`, params);
  const params = { reference: print.reference, form: form.title };
  const lines = readableValues(print.structure, print.values, language).map(([l, v]) => `${l}: ${v}`);
  const extra = [
    ...(print.protocolNumber ? [t('confirmProtocol', { number: print.protocolNumber })] : []),
    ...(print.rfCode && print.fee
      ? [t('confirmPayment', { fee: formatMoney(print.fee, language), rf: print.rfCode })]
      : []),
  ];
  const send = async (to: string, subject: string, text: string) => {
    try {
      await ctx.mailer.send({ to: [to], subject, text });
    } catch (error) {
      ctx.log.warn({ err: error, reference: print.reference }, 'online form mail not sent');
    }
  };
  if (form.saveMethod === 1 && form.mailTo) {
    await send(
      form.mailTo,
      t('newSubject', params),
      [t('newIntro', params), ...extra, '', ...lines].join('\n'),
    );
  }
  if (citizenEmail) {
    await send(
      citizenEmail,
      t('confirmSubject', params),
      [t('confirmIntro', params), ...extra, '', ...lines].join('\n'),
    );
  }
}
