import { normalHeader } from '../../platform/imports/sheet.ts';

/* The reading lines of an import's file, from its rows as platform/imports/sheet.ts reads them. */

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
  const header = (rows[0] ?? []).map(normalHeader);
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
