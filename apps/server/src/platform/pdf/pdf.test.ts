import type { Readable } from 'node:stream';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import {
  barcodePng,
  type CompanyDetails,
  createPdf,
  drawBarcode,
  drawChart,
  drawPageFooters,
  drawPageHeading,
  drawTotals,
  type PageHeading,
  type PdfColumn,
  PdfTable,
  pageHeadingHeight,
} from './index.ts';

interface TextItem {
  text: string;
  x: number;
  width: number;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every page's text items with where they start and how wide they are. */
async function pdfItems(bytes: Buffer): Promise<TextItem[][]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, verbosity: 0 }).promise;
  const pages: TextItem[][] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(
      content.items.flatMap((item) =>
        'str' in item && item.str.trim() !== ''
          ? [{ text: item.str, x: item.transform[4] as number, width: item.width }]
          : [],
      ),
    );
  }
  await pdf.destroy();
  return pages;
}

const pageText = (items: TextItem[]) => items.map((item) => item.text).join(' ');

const company: CompanyDetails = {
  name: 'ΔΕΥΑ Αγίας Ελένης',
  vatNumber: '099999999',
  taxOffice: 'Αγίας Ελένης',
  address: 'Πλατεία Δημαρχείου 1, 12345 Αγία Ελένη',
};
const MARGIN = 36;
const columns: PdfColumn[] = [
  { label: 'Κωδικός', width: 70 },
  { label: 'Περιγραφή', width: 300 },
  { label: 'Ποσό (€)', width: 90, align: 'right' },
];

describe('PDF toolkit', () => {
  it('flows a table over pages with the heading, header row and "Σελίδα N από M" on each; money right-aligned; totals', async () => {
    const heading: PageHeading = { company, title: 'Λογαριασμοί κατανάλωσης' };
    const { doc, stream } = createPdf({
      language: 'el',
      title: 'Λογαριασμοί',
      margins: { top: MARGIN + pageHeadingHeight(heading, 'el'), left: MARGIN, right: MARGIN, bottom: 60 },
      bufferPages: true,
    });
    drawPageHeading(doc, heading, 'el', MARGIN);
    const table = new PdfTable(doc, {
      columns,
      afterBreak: () => drawPageHeading(doc, heading, 'el', MARGIN),
    });
    table.header();
    const count = 130;
    for (let i = 1; i <= count; i++) {
      const description =
        i % 9 === 0
          ? 'Πολύ μεγάλη περιγραφή που αναδιπλώνεται σε περισσότερες γραμμές '.repeat(3)
          : `Γραμμή ${i}`;
      table.row([`K${1000 + i}`, description, `${i},50`]);
    }
    drawTotals(doc, [
      { label: 'Καθαρό ποσό', value: '8.580,00' },
      { label: 'ΦΠΑ 13%', value: '1.115,40' },
      { label: 'Σύνολο', value: '9.695,40', strong: true },
    ]);
    drawPageFooters(doc, 'el', 'Λογαριασμοί');
    doc.end();

    const pages = await pdfItems(await readAll(stream));
    expect(pages.length).toBeGreaterThan(2);
    expect(table.pages).toBe(pages.length);
    const seen: string[] = [];
    const amountRight = MARGIN + 70 + 300 + 90 - 4; // column end less its padding
    pages.forEach((items, index) => {
      const text = pageText(items);
      expect(text).toContain('ΔΕΥΑ Αγίας Ελένης');
      expect(text).toContain('ΑΦΜ: 099999999 · ΔΟΥ: Αγίας Ελένης · Πλατεία Δημαρχείου 1, 12345 Αγία Ελένη');
      expect(text).toContain('Κωδικός Περιγραφή Ποσό (€)');
      expect(text).toContain(`Σελίδα ${index + 1} από ${pages.length}`);
      seen.push(...items.filter((item) => /^K\d{4}$/.test(item.text)).map((item) => item.text));
      for (const amount of items.filter((item) => /^\d+,50$/.test(item.text))) {
        expect(amount.x + amount.width).toBeCloseTo(amountRight, 0);
      }
    });
    // Every row once, in order: none lost or repeated at a break.
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => `K${1001 + i}`));
    const last = pageText(pages.at(-1) ?? []);
    expect(last).toMatch(/Καθαρό ποσό 8\.580,00 ΦΠΑ 13% 1\.115,40 Σύνολο 9\.695,40/);
  });

  it('measures without drawing: the page count of a dry run is the count of the real one', async () => {
    const options = {
      language: 'en' as const,
      title: 'Dry run',
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
    };
    const dry = new PdfTable(createPdf(options).doc, { columns, measureOnly: true });
    const { doc, stream } = createPdf({ ...options, bufferPages: true });
    const real = new PdfTable(doc, { columns });
    dry.header();
    real.header();
    for (let i = 0; i < 200; i++) {
      const cells = [`${i}`, i % 5 === 0 ? 'wrapped text '.repeat(40) : 'short', '1.00'];
      expect(dry.row(cells)).toBe(real.row(cells));
    }
    drawPageFooters(doc, 'en');
    doc.end();
    const pages = await pdfItems(await readAll(stream));
    expect(dry.pages).toBe(pages.length);
    expect(pageText(pages.at(-1) ?? [])).toContain(`Page ${pages.length} of ${pages.length}`);
  });

  it('makes QR and Code 128 PNGs with bwip-js and places them as images', async () => {
    const qr = await barcodePng({ type: 'qrcode', text: 'HELLO', scale: 4 });
    expect(qr.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: a version-1 QR code is 21 modules square; bwip-js draws a module as 2 × scale pixels.
    expect([qr.readUInt32BE(16), qr.readUInt32BE(20)]).toEqual([21 * 8, 21 * 8]);
    const bars = await barcodePng({ type: 'code128', text: 'RF18539007547034' });
    expect(bars.readUInt32BE(16)).toBeGreaterThan(bars.readUInt32BE(20));
    await expect(barcodePng({ type: 'ean13', text: 'not digits' })).rejects.toThrow();

    const { doc, stream } = createPdf({
      language: 'el',
      title: 'Κωδικοί',
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
    });
    await drawBarcode(
      doc,
      { type: 'qrcode', text: 'https://example.gr/pay/123' },
      { x: 40, y: 40, width: 90, height: 90 },
    );
    await drawBarcode(
      doc,
      { type: 'code128', text: 'RF18539007547034' },
      { x: 150, y: 40, width: 200, height: 50 },
    );
    doc.end();
    const raw = (await readAll(stream)).toString('latin1');
    // Two images drawn; each PNG's transparency comes as a soft mask image of its own.
    const images = raw.match(/\/Subtype \/Image/g)?.length ?? 0;
    const masks = raw.match(/\/SMask \d+ 0 R/g)?.length ?? 0;
    expect(images - masks).toBe(2);
  });

  it('draws a bar and a line chart with round axis ticks and the labels', async () => {
    const { doc, stream } = createPdf({
      language: 'el',
      title: 'Κατανάλωση',
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
    });
    const points = ['01/26', '02/26', '03/26', '04/26'].map((label, i) => ({
      label,
      value: [12, 37.5, 0, 88][i] ?? 0,
    }));
    drawChart(
      doc,
      { kind: 'bar', points, title: 'Κατανάλωση (m³)', language: 'el' },
      { x: 40, y: 40, width: 300, height: 150 },
    );
    drawChart(doc, { kind: 'line', points, language: 'el' }, { x: 40, y: 220, width: 300, height: 150 });
    doc.end();
    const [items = []] = await pdfItems(await readAll(stream));
    const text = pageText(items);
    expect(text).toContain('Κατανάλωση (m³)');
    for (const tick of ['0', '50', '100']) expect(items.some((item) => item.text === tick)).toBe(true);
    expect(text.match(/03\/26/g)?.length).toBe(2);
  });
});
