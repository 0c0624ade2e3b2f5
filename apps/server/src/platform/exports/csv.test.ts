import { describe, expect, it } from 'vitest';
import { renderExport } from './render.ts';
import {
  columns5,
  countingBatches,
  greekRow,
  once,
  pulledAtFirstChunk,
  readAll,
  rows5,
} from './test-fixtures.ts';

const at = new Date('2026-11-21T10:00:00Z');

describe('csv export', () => {
  it('is UTF-8 with a BOM, comma separated, CRLF, RFC 4180 quoted, formulas neutralised', async () => {
    const rendered = renderExport({
      format: 'csv',
      title: 'Χειριστές',
      language: 'el',
      columns: columns5,
      rows: once(rows5),
      generatedAt: at,
    });
    expect(rendered.contentType).toBe('text/csv; charset=utf-8');
    expect(rendered.extension).toBe('csv');
    const bytes = await readAll(rendered.stream);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')).toEqual([
      'Επώνυμο,Όνομα,Ενεργός,Ημερομηνία,Ποσό',
      'Παπαδοπούλου,Μαρία,Ναι,05/03/2026,1234.50',
      'Οικονόμου,Γιώργος,Όχι,21/11/2026,-7.01',
      `'=SUM(A1),"Νίκος, ""ο μικρός""",,,`,
      '',
    ]);
  });

  it('quotes line breaks inside a cell; only a formula at the start of a cell is neutralised', async () => {
    const rendered = renderExport({
      format: 'csv',
      title: 'Σημειώσεις',
      language: 'en',
      columns: [
        { id: 'note', label: 'Σημείωση', type: 'text' },
        { id: 'flag', label: '@flag', type: 'boolean' },
      ],
      rows: once([
        { note: 'γραμμή 1\nγραμμή =2', flag: true },
        { note: '-cmd', flag: false },
      ]),
    });
    const text = (await readAll(rendered.stream)).subarray(3).toString('utf8');
    expect(text).toBe(`Σημείωση,'@flag\r\n"γραμμή 1\nγραμμή =2",Yes\r\n'-cmd,No\r\n`);
  });

  it('reads the rows batch by batch as the file is read', async () => {
    const { rows, state } = countingBatches(60_000, 1000, greekRow);
    const rendered = renderExport({
      format: 'csv',
      title: 'Καταναλωτές',
      language: 'el',
      columns: columns5,
      rows,
    });
    const atFirst = await pulledAtFirstChunk(rendered.stream, state);
    expect(atFirst).toBeGreaterThan(0);
    expect(atFirst).toBeLessThan(state.total / 2);
    expect(state.pulled).toBe(state.total);
  });
});
