import {
  consumerImportColumns,
  consumerImportLevelHeaders,
  type EncodingCodeDefinition,
} from '@protocol/contracts';
import ExcelJS from 'exceljs';
import { normalHeader, sheetRows } from '../../platform/imports/sheet.ts';

/** One row of the file by column key, with its line (the header is line 1). */
export interface ImportRow {
  line: number;
  parts: string[];
  values: Record<string, string>;
}

export class ImportFileError extends Error {}

/**
 * The file's rows by the template's columns, found by their Greek headers in any order; blank rows
 * are skipped. A file without every column of the code or the supply address is refused whole.
 */
export async function readImportFile(bytes: Buffer, def: EncodingCodeDefinition): Promise<ImportRow[]> {
  const rows = await sheetRows(bytes);
  const header = (rows[0] ?? []).map(normalHeader);
  const levelHeaders = consumerImportLevelHeaders(def);
  const index = (h: string) => header.indexOf(normalHeader(h));
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
