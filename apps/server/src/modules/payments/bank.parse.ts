import {
  type BankDateFormat,
  type BankLayout,
  type BankLayoutFieldName,
  type BankLineReason,
  Decimal,
  isValidRf,
  moneyString,
} from '@protocol/contracts';
import { parse } from 'csv-parse/sync';

/**
 * Reading a bank's payments file by its layout (data, see contracts payments-bank.ts): CSV columns or
 * fixed-width positions, the amount with a decimal point, a decimal comma or in cents, the date in
 * the layout's pattern. Each payment line becomes either its values or the reason it is malformed.
 */

export interface ParsedBankLine {
  lineNo: number;
  raw: string;
  reference: string | null;
  rfCode: string | null;
  amount: string | null;
  date: string | null;
  payer: string | null;
  /** Set when nothing can be paid from the line (invalid) or its RF cannot be matched (unmatched). */
  problem: BankLineReason | null;
}

type Layout = Pick<
  BankLayout,
  | 'format'
  | 'separator'
  | 'headerLines'
  | 'recordPrefix'
  | 'amountInCents'
  | 'decimalComma'
  | 'dateFormat'
  | 'fields'
>;

/** The file's text: UTF-8, or the Greek code page the banks' older systems write (windows-1253). */
export function bankFileText(bytes: Buffer): string {
  const utf8 = bytes.toString('utf8');
  const text = utf8.includes('\uFFFD') ? new TextDecoder('windows-1253').decode(bytes) : utf8;
  return text.replace(/^\uFEFF/, '');
}

/** Whether the bytes can be a text payments file (no NULs: not a spreadsheet, PDF or image). */
export const isTextFile = (bytes: Buffer) => bytes.length > 0 && !bytes.includes(0);

/** An amount as written, to "1234.56"; null when it is not one (or not positive). */
export function bankAmount(
  text: string,
  layout: Pick<Layout, 'amountInCents' | 'decimalComma'>,
): string | null {
  const value = text.trim().replace(/\s|€/g, '');
  let plain: string;
  if (layout.amountInCents) {
    if (!/^\d{1,15}$/.test(value)) return null;
    plain = moneyString(new Decimal(value).div(100));
  } else {
    const [thousands, mark] = layout.decimalComma ? ['.', ','] : [',', '.'];
    const pattern = layout.decimalComma
      ? /^(\d{1,3}(\.\d{3})+|\d+)(,\d{1,2})?$/
      : /^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;
    if (!pattern.test(value)) return null;
    plain = value.split(thousands).join('').replace(mark, '.');
  }
  const amount = new Decimal(plain);
  return amount.gt(0) && amount.lt(1e10) ? moneyString(amount) : null;
}

/** A date in the layout's pattern to ISO; null when it is not a real day. */
export function bankDate(text: string, format: BankDateFormat): string | null {
  const value = text.trim();
  const patterns: Record<BankDateFormat, RegExp> = {
    YYYYMMDD: /^(?<y>\d{4})(?<m>\d{2})(?<d>\d{2})$/,
    DDMMYYYY: /^(?<d>\d{2})(?<m>\d{2})(?<y>\d{4})$/,
    'DD/MM/YYYY': /^(?<d>\d{1,2})\/(?<m>\d{1,2})\/(?<y>\d{4})$/,
    'DD.MM.YYYY': /^(?<d>\d{1,2})\.(?<m>\d{1,2})\.(?<y>\d{4})$/,
    'YYYY-MM-DD': /^(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})$/,
  };
  const groups = patterns[format].exec(value)?.groups;
  if (!groups) return null;
  const [y, m, d] = [Number(groups.y), Number(groups.m), Number(groups.d)];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return null;
  if (y < 2000 || y > 2100) return null;
  return day.toISOString().slice(0, 10);
}

/** An RF code as banks write it (spaces, lower case) to its plain form. */
export const plainRf = (text: string) => text.replace(/\s+/g, '').toUpperCase();

/** The payment lines of a file by its layout, numbered as the file's lines (1-based). */
export function parseBankFile(text: string, layout: Layout): ParsedBankLine[] {
  const rawLines = text.split(/\r?\n/);
  const cellsOf =
    layout.format === 'csv' ? csvCells(rawLines, layout.separator === '\\t' ? '\t' : layout.separator) : null;
  const out: ParsedBankLine[] = [];
  rawLines.forEach((raw, index) => {
    if (index < layout.headerLines || raw.trim() === '') return;
    if (layout.format === 'fixed' && layout.recordPrefix && !raw.startsWith(layout.recordPrefix)) return;
    const cells = cellsOf?.[index] ?? null;
    const value = (name: BankLayoutFieldName): string | null => {
      const place = layout.fields.find((f) => f.field === name);
      if (!place) return null;
      if (cells) return place.column && place.column <= cells.length ? (cells[place.column - 1] ?? '') : null;
      if (!place.start || !place.length || raw.length < place.start) return null;
      return raw.slice(place.start - 1, place.start - 1 + place.length);
    };
    out.push(lineOf(index + 1, raw, value, layout));
  });
  return out;
}

function lineOf(
  lineNo: number,
  raw: string,
  value: (name: BankLayoutFieldName) => string | null,
  layout: Layout,
): ParsedBankLine {
  const text = (name: BankLayoutFieldName) => {
    const v = value(name)?.trim() ?? '';
    return v === '' ? null : v;
  };
  const reference = text('reference');
  const amountText = text('amount');
  const dateText = text('date');
  const rfText = text('rfCode');
  const amount = amountText === null ? null : bankAmount(amountText, layout);
  const date = dateText === null ? null : bankDate(dateText, layout.dateFormat);
  const rfCode = rfText === null ? null : plainRf(rfText);
  const short = value('amount') === null || value('date') === null || value('reference') === null;
  // What makes a line unusable comes first; then what only keeps it from being matched by its RF.
  const problem: BankLineReason | null = short
    ? 'short'
    : reference === null
      ? 'noReference'
      : amount === null
        ? 'badAmount'
        : date === null
          ? 'badDate'
          : rfCode === null
            ? 'noRf'
            : !isValidRf(rfCode)
              ? 'badRf'
              : null;
  return {
    lineNo,
    raw: raw.slice(0, 500),
    reference: reference?.slice(0, 100) ?? null,
    rfCode: rfCode?.slice(0, 40) ?? null,
    amount,
    date,
    payer: text('payer')?.slice(0, 200) ?? null,
    problem,
  };
}

/** The CSV's cells per file line (index = the file's 0-based line), quotes honoured where they close. */
function csvCells(lines: string[], delimiter: string): (string[] | undefined)[] {
  const cells: (string[] | undefined)[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    // Without quotes a line is its cells as split (what the CSV parser gives, at a fraction of its cost).
    if (!line.includes('"') && !line.includes('\r')) {
      cells[index] = line.split(delimiter).map((c) => c.trim());
      return;
    }
    try {
      cells[index] = parse(line, { delimiter, relax_column_count: true, trim: true })[0] ?? [];
    } catch {
      cells[index] = line.split(delimiter).map((c) => c.trim());
    }
  });
  return cells;
}

/** Lines that leave the file invalid: nothing can be paid from them. */
export const invalidReasons: readonly BankLineReason[] = ['short', 'noReference', 'badAmount', 'badDate'];
