import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/*
 * Reading an import's file: the first sheet of an xlsx, or a UTF-8 csv separated by ',' or ';'.
 * Cells are kept as text, as written (no number guessing), with their 1-based line.
 */

const ZIP = [0x50, 0x4b, 0x03, 0x04];
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

const normal = (header: string) => header.trim().toLocaleLowerCase('el').replace(/\s+/g, ' ');

/** One reading line of a file: who (consumer code or meter serial), what and when. */
export interface ImportLine {
  line: number;
  code: string;
  serial: string;
  reading: string;
  readOn: string;
  note: string;
}

/**
 * A handheld file: the route sheet as exported (Κωδικός … Νέα ένδειξη), filled in; an optional
 * reading date and note. A drive-by file: meter serial, timestamp, reading, with or without header.
 * Answers null when the columns it needs are not there.
 */
export function importLines(rows: string[][], source: 3 | 4): ImportLine[] | null {
  const header = (rows[0] ?? []).map(normal);
  const at = (...names: string[]) => header.findIndex((h) => names.includes(h));
  if (source === 4) {
    const code = at('κωδικός', 'code');
    const reading = at('νέα ένδειξη', 'new reading', 'ένδειξη', 'reading');
    if (code < 0 || reading < 0) return null;
    const date = at('ημερομηνία ανάγνωσης', 'read on');
    const note = at('σημείωση', 'note');
    return lines(rows.slice(1), 2, (cells) => ({
      code: cells[code] ?? '',
      serial: '',
      reading: cells[reading] ?? '',
      readOn: date < 0 ? '' : (cells[date] ?? ''),
      note: note < 0 ? '' : (cells[note] ?? ''),
    }));
  }
  const named = at('serial', 'σειριακός') >= 0;
  return lines(named ? rows.slice(1) : rows, named ? 2 : 1, (cells) => ({
    code: '',
    serial: cells[0] ?? '',
    readOn: cells[1] ?? '',
    reading: cells[2] ?? '',
    note: '',
  }));
}

function lines(rows: string[][], first: number, pick: (cells: string[]) => Omit<ImportLine, 'line'>) {
  const out: ImportLine[] = [];
  rows.forEach((cells, i) => {
    if (cells.every((c) => !c)) return;
    out.push({ line: i + first, ...pick(cells) });
  });
  return out;
}
