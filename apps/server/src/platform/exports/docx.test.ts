import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { renderExport } from './render.ts';
import { batches, columns5, columns9, greekRow, once, readAll, rows5 } from './test-fixtures.ts';

async function documentXml(columns: typeof columns5, rows: AsyncIterable<Record<string, unknown>[]>) {
  const rendered = renderExport({
    format: 'word',
    title: 'Χειριστές',
    language: 'el',
    columns,
    rows,
    generatedAt: new Date('2026-11-21T10:00:00Z'),
  });
  expect(rendered.extension).toBe('docx');
  expect(rendered.contentType).toBe(
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  );
  const files = unzipSync(new Uint8Array(await readAll(rendered.stream)));
  const xml = strFromU8(files['word/document.xml'] ?? new Uint8Array());
  const footer = Object.entries(files)
    .filter(([name]) => /^word\/footer\d*\.xml$/.test(name))
    .map(([, bytes]) => strFromU8(bytes))
    .join('');
  return { xml, footer };
}

const entities: Record<string, string> = {
  '&quot;': '"',
  '&apos;': "'",
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
};
const decode = (text: string) =>
  text.replace(/&(?:quot|apos|lt|gt|amp);/g, (entity) => entities[entity] ?? entity);

/** The text of each table row: the w:t runs of each w:tc, joined by '|'. */
function tableRows(xml: string): string[] {
  return [...xml.matchAll(/<w:tr\b[\s\S]*?<\/w:tr>/g)].map((row) =>
    [...row[0].matchAll(/<w:tc\b[\s\S]*?<\/w:tc>/g)]
      .map((cell) =>
        [...cell[0].matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((t) => decode(t[1] ?? '')).join(''),
      )
      .join('|'),
  );
}

describe('docx export', () => {
  it('is a Word file with the title, the date and a Greek table whose header repeats', async () => {
    const { xml, footer } = await documentXml(columns5, once(rows5));
    expect(xml).toContain('>Χειριστές<');
    expect(xml).toContain('Εξαγωγή: 21/11/2026 12:00:00');
    const rows = tableRows(xml);
    expect(rows[0]).toBe('Επώνυμο|Όνομα|Ενεργός|Ημερομηνία|Ποσό');
    expect(rows[1]).toBe('Παπαδοπούλου|Μαρία|Ναι|05/03/2026|1.234,50');
    expect(rows[2]).toBe('Οικονόμου|Γιώργος|Όχι|21/11/2026|-7,01');
    expect(rows[3]).toBe('=SUM(A1)|Νίκος, "ο μικρός"|||');
    // The header row repeats on each page; no row splits across pages.
    const headerRow = xml.match(/<w:tr\b[\s\S]*?<\/w:tr>/)?.[0] ?? '';
    expect(headerRow).toContain('<w:tblHeader/>');
    expect(xml.match(/<w:cantSplit\/>/g)).toHaveLength(4);
    // Portrait up to 6 columns; page numbers in the footer.
    expect(xml).not.toContain('w:orient="landscape"');
    expect(footer).toContain('Σελίδα');
    expect(footer).toMatch(/PAGE/);
    expect(footer).toMatch(/NUMPAGES/);
  });

  it('turns landscape beyond 6 columns, fits the table to the page and keeps every row', async () => {
    const { xml } = await documentXml(columns9, batches(120, 25, greekRow));
    expect(xml).toMatch(/<w:pgSz w:w="16838" w:h="11906" w:orient="landscape"\/>/);
    const grid = [...xml.matchAll(/<w:gridCol w:w="(\d+)"\/>/g)].map((match) => Number(match[1]));
    expect(grid).toHaveLength(9);
    const total = grid.reduce((sum, width) => sum + width, 0);
    expect(Math.abs(total - (16838 - 2 * 720))).toBeLessThanOrEqual(9);
    const rows = tableRows(xml);
    expect(rows).toHaveLength(121);
    expect(rows[1]).toBe('100000|Παπαδοπούλου|Μαρία|Οδός Ερμού 1|Κέντρο|Ενεργή παροχή|Όχι|01/01/2020|0,00');
    expect(rows[120]).toContain('100119');
  });
});
