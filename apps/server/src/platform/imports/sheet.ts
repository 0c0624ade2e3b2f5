import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

/*
 * Reading an uploaded import file (the water consumers' register, readings files): the first sheet
 * of an xlsx, or a UTF-8 csv separated by ',' or ';'. Cells are kept as text, as written (no
 * number guessing), each row at its 0-based index (the header is row 0, the file's line 1).
 */

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** An xlsx is a zip: it starts with the zip's local file header. */
export const isXlsx = (bytes: Buffer) => ZIP.every((b, i) => bytes[i] === b);

/**
 * The format's own last row. The row numbers are the file's (`<row r="…">`): reading every row up
 * to one of 1,000,000,000 would hold the server for as long as it allocates them (issue 29 item 1).
 */
export const XLSX_MAX_ROWS = 1_048_576;

export async function sheetRows(bytes: Buffer): Promise<string[][]> {
  if (!isXlsx(bytes)) return csvRows(bytes);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (sheet && sheet.rowCount > XLSX_MAX_ROWS)
    throw new Error(`The sheet names row ${sheet.rowCount}, past the format's last (${XLSX_MAX_ROWS})`);
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

/**
 * A csv straight to rows with csv-parse: going through an ExcelJS worksheet built a cell model per
 * value and took 3.6 s for 100,000 lines (0.8 s now). A file whose quotes do not close is read again
 * with quotes as plain characters, so the import reports the lines it cannot use instead of failing.
 */
function csvRows(bytes: Buffer): string[][] {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
  const options = { delimiter, relax_column_count: true, skip_empty_lines: false, trim: true };
  let records: string[][];
  try {
    records = parse(text, options);
  } catch {
    records = parse(text, { ...options, quote: false });
  }
  return records.map((cells) => (cells.length === 1 && cells[0] === '' ? [] : cells));
}

/** A header as compared: trimmed, lower case (Greek rules), inner spaces as one. */
export const normalHeader = (header: string) => header.trim().toLocaleLowerCase('el').replace(/\s+/g, ' ');
