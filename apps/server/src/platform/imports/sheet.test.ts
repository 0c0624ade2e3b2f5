import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { isXlsx, normalHeader, sheetRows, XLSX_MAX_ROWS } from './sheet.ts';

describe('reading an import file', () => {
  it('reads a csv by its delimiter, without a BOM, keeping the cells as written', async () => {
    const csv = Buffer.from('\uFEFFΚωδικός;Νέα ένδειξη\n01-001-    1;00130\n\n2;7\n', 'utf8');
    expect(isXlsx(csv)).toBe(false);
    expect(await sheetRows(csv)).toEqual([
      ['Κωδικός', 'Νέα ένδειξη'],
      ['01-001-    1', '00130'],
      [],
      ['2', '7'],
    ]);
    expect(await sheetRows(Buffer.from('a,b\n1,2\n'))).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    // Quoted cells keep their delimiters and quotes; a line may have fewer cells than the header.
    expect(await sheetRows(Buffer.from('a;b;c\r\n"Οδός 1; Α΄";"say ""hi"""\r\nx\r\n'))).toEqual([
      ['a', 'b', 'c'],
      ['Οδός 1; Α΄', 'say "hi"'],
      ['x'],
    ]);
    // A quote that never closes: read with quotes as plain text, each line on its own.
    expect(await sheetRows(Buffer.from('a;b\n"1;2\n3;4\n'))).toEqual([
      ['a', 'b'],
      ['"1', '2'],
      ['3', '4'],
    ]);
  });

  it('reads the first sheet of an xlsx as shown', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Φύλλο');
    sheet.addRow(['Serial', 'Timestamp', 'Reading']);
    sheet.addRow(['AMR-1', '2026-02-01T08:00:00Z', 130]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(isXlsx(bytes)).toBe(true);
    expect(await sheetRows(bytes)).toEqual([
      ['Serial', 'Timestamp', 'Reading'],
      ['AMR-1', '2026-02-01T08:00:00Z', '130'],
    ]);
    expect(normalHeader('  Νέα   ΈΝΔΕΙΞΗ ')).toBe('νέα ένδειξη');
  });

  it('issue 29 item 1: an xlsx naming a row past the format’s last is refused before its rows are read', async () => {
    // The rows between are read too (empty): a file of a few kB naming row 2,097,152 had the server
    // make two million rows (22 s) before answering anyone else.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Φύλλο');
    sheet.getRow(1).values = ['Κωδικός', 'Ένδειξη'];
    sheet.getRow(XLSX_MAX_ROWS * 2).values = ['0001', '12'];
    const far = Buffer.from(await workbook.xlsx.writeBuffer());
    const started = performance.now();
    await expect(sheetRows(far)).rejects.toThrow(/past the format/);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
