import { Readable } from 'node:stream';
import { UTILITY_TIME_ZONE } from '@protocol/contracts';
import { stringify } from 'csv-stringify';
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

/** CSV: UTF-8 with BOM (Excel needs it for Greek), comma separated, CRLF records, RFC 4180 quoting. */
export function renderCsv(job: ExportJob): Readable {
  const { columns, language } = job;
  const timeZone = job.timeZone ?? UTILITY_TIME_ZONE;
  async function* records(): AsyncGenerator<string[]> {
    yield columns.map((column) => neutraliseFormula(column.label));
    for await (const batch of job.rows) {
      for (const row of batch) {
        yield columns.map((column) =>
          neutraliseFormula(formatDataCell(row[column.id], column.type, language, timeZone)),
        );
      }
    }
  }
  const source = Readable.from(records());
  const stringifier = stringify({
    bom: true,
    delimiter: ',',
    record_delimiter: '\r\n',
    quote: '"',
    // csv-stringify quotes the record delimiter (CRLF) by itself; RFC 4180 wants a lone LF or CR quoted too.
    quoted_match: /[\r\n]/,
  });
  source.on('error', (error) => stringifier.destroy(error));
  return source.pipe(stringifier);
}
