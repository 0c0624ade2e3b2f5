import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { renderExport } from './render.ts';
import {
  columns5,
  columns9,
  countingBatches,
  greekRow,
  once,
  pulledAtFirstChunk,
  readAll,
  rows5,
} from './test-fixtures.ts';
import { sheetName } from './xlsx.ts';

async function load(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe('xlsx export', () => {
  it('opens in ExcelJS with a bold, frozen, filtered Greek header and typed cells', async () => {
    const rendered = renderExport({
      format: 'excel',
      title: 'Χειριστές',
      language: 'el',
      columns: columns5,
      rows: once(rows5),
      generatedAt: new Date('2026-11-21T10:00:00Z'),
    });
    expect(rendered.extension).toBe('xlsx');
    expect(rendered.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const bytes = await readAll(rendered.stream);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const workbook = await load(bytes);
    const sheet = workbook.getWorksheet('Χειριστές');
    expect(sheet).toBeDefined();
    if (!sheet) return;

    const header = sheet.getRow(1);
    expect(header.values).toEqual([undefined, 'Επώνυμο', 'Όνομα', 'Ενεργός', 'Ημερομηνία', 'Ποσό']);
    expect(header.getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:E4');
    for (let column = 1; column <= 5; column++) {
      expect(sheet.getColumn(column).width ?? 0).toBeGreaterThanOrEqual(8);
    }
    expect(sheet.getColumn(1).width).toBeGreaterThanOrEqual('Παπαδοπούλου'.length);

    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe('Παπαδοπούλου');
    expect(first.getCell(2).value).toBe('Μαρία');
    expect(first.getCell(3).value).toBe('Ναι');
    expect(first.getCell(4).value).toEqual(new Date(Date.UTC(2026, 2, 5)));
    expect(first.getCell(4).numFmt).toBe('dd/mm/yyyy');
    expect(first.getCell(5).value).toBe(1234.5);
    expect(first.getCell(5).numFmt).toBe('#,##0.00');

    const second = sheet.getRow(3);
    expect(second.getCell(3).value).toBe('Όχι');
    expect(second.getCell(4).value).toEqual(new Date(Date.UTC(2026, 10, 21)));
    expect(second.getCell(5).value).toBe(-7.01);

    const third = sheet.getRow(4);
    // A string that looks like a formula stays a string: xlsx cells hold no formula unless written as one.
    expect(third.getCell(1).value).toBe('=SUM(A1)');
    expect(third.getCell(1).formula).toBeUndefined();
    expect(third.getCell(3).value).toBeNull();
    expect(third.getCell(5).value).toBeNull();
  });

  it('writes numbers as numbers and shows booleans in English', async () => {
    const rendered = renderExport({
      format: 'excel',
      title: 'Consumers',
      language: 'en',
      columns: columns9,
      rows: once([greekRow(0), greekRow(1)]),
    });
    const sheet = (await load(await readAll(rendered.stream))).worksheets[0];
    expect(sheet?.name).toBe('Consumers');
    expect(sheet?.getRow(2).getCell(1).value).toBe(100_000);
    expect(sheet?.getRow(2).getCell(5).value).toBe('Κέντρο');
    expect(sheet?.getRow(2).getCell(7).value).toBe('No');
    expect(sheet?.getRow(3).getCell(7).value).toBe('Yes');
    expect(sheet?.getRow(2).getCell(9).value).toBe(0);
    expect(sheet?.getRow(3).getCell(9).value).toBe(7919.37);
  });

  it('streams: rows are read batch by batch while the file is written', async () => {
    const { rows, state } = countingBatches(20_000, 500, greekRow);
    const rendered = renderExport({
      format: 'excel',
      title: 'Καταναλωτές',
      language: 'el',
      columns: columns9,
      rows,
    });
    const atFirst = await pulledAtFirstChunk(rendered.stream, state);
    expect(atFirst).toBeLessThan(state.total / 2);
    expect(state.pulled).toBe(state.total);
  });

  it('keeps sheet names within Excel rules', () => {
    expect(sheetName('Έσοδα/Έξοδα [2026]: *όλα*?')).toBe('Έσοδα Έξοδα 2026 όλα');
    expect(sheetName("'Πολύ μεγάλος τίτλος καταλόγου καταναλωτών'")).toHaveLength(31);
    expect(sheetName('  ')).toBe('Export');
  });
});
