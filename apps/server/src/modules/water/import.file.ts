import { Readable } from 'node:stream';
import {
  consumerImportColumns,
  consumerImportLevelHeaders,
  type EncodingCodeDefinition,
} from '@protocol/contracts';
import ExcelJS from 'exceljs';

/** One row of the file by column key, with its line (the header is line 1). */
export interface ImportRow {
  line: number;
  parts: string[];
  values: Record<string, string>;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
export const isXlsx = (bytes: Buffer) => ZIP.every((b, i) => bytes[i] === b);

/** The rows of a sheet as text: xlsx cells as shown, csv fields as written (no number guessing). */
async function sheetRows(bytes: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet | undefined;
  if (isXlsx(bytes)) {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    sheet = workbook.worksheets[0];
  } else {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    const first = text.split(/\r?\n/, 1)[0] ?? '';
    const delimiter = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
    sheet = await workbook.csv.read(Readable.from([text]), {
      map: (value: unknown) => value,
      parserOptions: { delimiter },
    } as never);
  }
  const rows: string[][] = [];
  sheet?.eachRow({ includeEmpty: true }, (row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = (cell.text ?? '').trim();
    });
    rows[number - 1] = Array.from(cells, (c) => c ?? '');
  });
  return Array.from(rows, (r) => r ?? []);
}

export class ImportFileError extends Error {}

const normal = (header: string) => header.trim().toLocaleLowerCase('el').replace(/\s+/g, ' ');

/**
 * The file's rows by the template's columns, found by their Greek headers in any order; blank rows
 * are skipped. A file without every column of the code or the supply address is refused whole.
 */
export async function readImportFile(bytes: Buffer, def: EncodingCodeDefinition): Promise<ImportRow[]> {
  const rows = await sheetRows(bytes);
  const header = (rows[0] ?? []).map(normal);
  const levelHeaders = consumerImportLevelHeaders(def);
  const index = (h: string) => header.indexOf(normal(h));
  const missing = [...levelHeaders, 'Διεύθυνση παροχής'].filter((h) => index(h) < 0);
  if (missing.length > 0) throw new ImportFileError(missing.join(', '));
  const levelAt = levelHeaders.map(index);
  const columnAt = consumerImportColumns.map((c) => [c.key, index(c.header)] as const);
  const out: ImportRow[] = [];
  rows.slice(1).forEach((cells, i) => {
    if (cells.every((c) => !c)) return;
    out.push({
      line: i + 2,
      parts: levelAt.map((at) => cells[at] ?? ''),
      values: Object.fromEntries(columnAt.map(([key, at]) => [key, at < 0 ? '' : (cells[at] ?? '')])),
    });
  });
  return out;
}

/** The template: the code's levels, then the other columns, Greek headers, text cells (codes keep zeros). */
export async function importTemplate(def: EncodingCodeDefinition): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Καταναλωτές');
  const headers = [...consumerImportLevelHeaders(def), ...consumerImportColumns.map((c) => c.header)];
  sheet.columns = headers.map((header) => ({
    header,
    width: Math.max(14, header.length + 2),
    style: { numFmt: '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
