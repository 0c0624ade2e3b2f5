import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { xlsxWithLargeCell } from '../../test/xlsx-bomb.ts';
import { checkImportFile, IMPORT_LIMITS } from './limits.ts';
import { sheetRows } from './sheet.ts';

const refusal = (key: string, params: Record<string, number> = {}) => ({ key, params });

describe('the limits of an import file', () => {
  it('issue 29 item 5: an xlsx is refused by what its parts unpack to, counted without keeping them', async () => {
    const bomb = await xlsxWithLargeCell([['a'], ['{large}']], 100 * 1024 * 1024);
    const heap = process.memoryUsage().heapUsed;
    await expect(checkImportFile(bomb)).rejects.toMatchObject(
      refusal('error.import_unpacked_too_large', { mb: 64 }),
    );
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(32 * 1024 * 1024);
    // A part under the limit is read; a zip that is not one is unreadable.
    const fine = await xlsxWithLargeCell(
      [
        ['a', 'b'],
        ['1', '{large}'],
      ],
      5,
    );
    expect(await sheetRows(fine)).toEqual([
      ['a', 'b'],
      ['1', 'AAAAA'],
    ]);
    await expect(checkImportFile(fine.subarray(0, fine.length - 30))).rejects.toMatchObject(
      refusal('error.import_unreadable'),
    );
  });

  it('issue 29 item 5: a row of too many cells, a cell too long, a text line too long or too many rows fail the file', async () => {
    const wide = Array.from({ length: IMPORT_LIMITS.rowCells + 1 }, (_, i) => String(i)).join(';');
    await expect(sheetRows(Buffer.from(`a;b\n${wide}\n`))).rejects.toMatchObject(
      refusal('error.import_too_many_cells', { line: 2, max: 256 }),
    );
    // A quoted cell may span lines, each of them short.
    const quoted = `a;b\n1;"${'x\n'.repeat(17_000)}"\n`;
    await expect(sheetRows(Buffer.from(quoted))).rejects.toMatchObject(
      refusal('error.import_cell_too_long', { line: 2, column: 2, max: 32_767 }),
    );
    await expect(checkImportFile(Buffer.from(`a\n${'9'.repeat(70_000)}\n`))).rejects.toMatchObject(
      refusal('error.import_line_too_long', { line: 2, max: 32_767 }),
    );
    await expect(checkImportFile(Buffer.from('1\n'.repeat(IMPORT_LIMITS.rows + 2)))).rejects.toMatchObject(
      refusal('error.import_too_many_rows', { max: 200_000 }),
    );
    await expect(checkImportFile(Buffer.from('1\n'.repeat(IMPORT_LIMITS.rows)))).resolves.toBeUndefined();
    // A sheet whose one cell sits on row 300,000: refused before the empty rows up to it are made.
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('x').getCell('A300000').value = 'x';
    await expect(sheetRows(Buffer.from(await workbook.xlsx.writeBuffer()))).rejects.toMatchObject(
      refusal('error.import_too_many_rows', { max: 200_000 }),
    );
  });
});
