import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/*
 * Reading an uploaded import file (the water consumers' register, readings files): the first sheet
 * of an xlsx, or a UTF-8 csv separated by ',' or ';'. Cells are kept as text, as written (no
 * number guessing), each row at its 0-based index (the header is row 0, the file's line 1).
 */

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** An xlsx is a zip: it starts with the zip's local file header. */
export const isXlsx = (bytes: Buffer) => ZIP.every((b, i) => bytes[i] === b);

export async function sheetRows(bytes: Buffer): Promise<string[][]> {
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

/** A header as compared: trimmed, lower case (Greek rules), inner spaces as one. */
export const normalHeader = (header: string) => header.trim().toLocaleLowerCase('el').replace(/\s+/g, ' ');
