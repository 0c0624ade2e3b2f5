import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { isXlsx } from './limits.ts';
import { normalHeader, sheetRows } from './sheet.ts';

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
});
