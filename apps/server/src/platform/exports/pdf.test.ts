import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { renderExport } from './render.ts';
import { batches, columns5, columns9, greekRow, once, readAll, rows5 } from './test-fixtures.ts';

interface PdfPage {
  width: number;
  height: number;
  text: string;
}

async function pdfPages(bytes: Buffer): Promise<PdfPage[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, verbosity: 0 }).promise;
  const pages: PdfPage[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
    pages.push({ width: x1 - x0, height: y1 - y0, text: text.replace(/\s+/g, ' ') });
  }
  await pdf.destroy();
  return pages;
}

describe('pdf export', () => {
  it('has the Greek title, date, header and rows in an embedded font, portrait up to 6 columns', async () => {
    const rendered = renderExport({
      format: 'pdf',
      title: 'Χειριστές',
      language: 'el',
      columns: columns5,
      rows: once(rows5),
      generatedAt: new Date('2026-11-21T10:00:00Z'),
    });
    expect(rendered.contentType).toBe('application/pdf');
    expect(rendered.extension).toBe('pdf');
    const bytes = await readAll(rendered.stream);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const raw = bytes.toString('latin1');
    expect(raw).toContain('/FontFile2'); // an embedded TrueType font…
    expect(raw).toMatch(/\+DejaVuSansCondensed/); // …subset from DejaVu, which has the Greek glyphs
    expect(raw).not.toContain('/Helvetica');

    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(1);
    const [page] = pages;
    expect(page?.width).toBeLessThan(page?.height ?? 0);
    expect(page?.text).toContain('Χειριστές');
    expect(page?.text).toContain('Εξαγωγή: 21/11/2026 12:00:00');
    expect(page?.text).toMatch(/Επώνυμο Όνομα Ενεργός Ημερομηνία Ποσό/);
    expect(page?.text).toMatch(/Παπαδοπούλου Μαρία Ναι 05\/03\/2026 1\.234,50/);
    expect(page?.text).toMatch(/Οικονόμου Γιώργος Όχι 21\/11\/2026 -7,01/);
    expect(page?.text).toContain('Σελίδα 1 / 1');
  });

  it('goes landscape beyond 6 columns, repeats the header on every page and never cuts a row', async () => {
    const count = 150;
    const rendered = renderExport({
      format: 'pdf',
      title: 'Καταναλωτές',
      language: 'el',
      columns: columns9,
      rows: batches(count, 40, greekRow),
    });
    const pages = await pdfPages(await readAll(rendered.stream));
    expect(pages.length).toBeGreaterThan(2);
    const seen = new Map<number, number>();
    pages.forEach((page, index) => {
      expect(page.width).toBeGreaterThan(page.height);
      for (const column of columns9) {
        for (const word of column.label.split(' ')) expect(page.text).toContain(word);
      }
      expect(page.text).toContain(`Σελίδα ${index + 1} / ${pages.length}`);
      // A wrapped address ends in 'φαρμακείο': it is on the page of its row, never on the next.
      const codes = [...page.text.matchAll(/\b(1\d{5})\b/g)].map((match) => Number(match[1]) - 100_000);
      for (const code of codes) seen.set(code, (seen.get(code) ?? 0) + 1);
      const long = codes.filter((code) => code % 7 === 3).length;
      expect(page.text.match(/φαρμακείο/g)?.length ?? 0).toBe(long);
    });
    expect(seen.size).toBe(count);
    expect([...seen.values()].every((times) => times === 1)).toBe(true);
  });

  it('says Page n of N in English and clips a cell taller than a page instead of looping', async () => {
    const rendered = renderExport({
      format: 'pdf',
      title: 'Operators',
      language: 'en',
      columns: columns5,
      rows: once([{ lastName: 'λέξη '.repeat(3000), firstName: 'Μαρία', active: false }, rows5[0] ?? {}]),
    });
    const pages = await pdfPages(await readAll(rendered.stream));
    expect(pages).toHaveLength(2);
    expect(pages[0]?.text).toContain('Page 1 of 2');
    expect(pages[0]?.text).toContain('…');
    expect(pages[0]?.text).toContain('No');
    expect(pages[1]?.text).toContain('Παπαδοπούλου');
    expect(pages[1]?.text).toContain('Yes');
  });
});
