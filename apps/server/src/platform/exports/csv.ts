import { Readable } from 'node:stream';
import { UTILITY_TIME_ZONE } from '@protocol/contracts';
import { stringify } from 'csv-stringify/sync';
import { formatDataCell } from './format.ts';
import type { ExportJob } from './types.ts';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Defends against spreadsheet formula injection (OWASP "CSV injection"): a cell that starts with
 * = + - @, a tab or a carriage return gets a leading apostrophe, so a spreadsheet shows it as text.
 * A plain negative number ('-12.50') cannot be a formula and is left alone.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

const OPTIONS = {
  delimiter: ',',
  record_delimiter: '\r\n',
  quote: '"',
  // csv-stringify quotes the record delimiter (CRLF) by itself; RFC 4180 wants a lone LF or CR quoted too.
  quoted_match: /[\r\n]/,
} as const;

/**
 * CSV: UTF-8 with BOM (Excel needs it for Greek), comma separated, CRLF records, RFC 4180 quoting.
 * One chunk per batch of rows (a stream of one object per record costs more than the formatting), read
 * as the file is read.
 */
export function renderCsv(job: ExportJob): Readable {
  const { columns, language } = job;
  const timeZone = job.timeZone ?? UTILITY_TIME_ZONE;
  async function* chunks(): AsyncGenerator<string> {
    yield stringify([columns.map((column) => neutraliseFormula(column.label))], { ...OPTIONS, bom: true });
    for await (const batch of job.rows) {
      const records = batch.map((row) =>
        columns.map((column) =>
          neutraliseFormula(formatDataCell(row[column.id], column.type, language, timeZone, column.amount)),
        ),
      );
      if (records.length > 0) yield stringify(records, OPTIONS);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
