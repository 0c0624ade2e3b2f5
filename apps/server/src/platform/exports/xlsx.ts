import { PassThrough, type Readable } from 'node:stream';
import { type AmountKind, spreadsheetNumber, UTILITY_TIME_ZONE } from '@protocol/contracts';
import ExcelJS from 'exceljs';
import { cleanText, formatCell, toDay } from './format.ts';
import { batchesOf, letStreamsFlow, waitForDrain } from './stream-util.ts';
import type { ExportColumn, ExportJob } from './types.ts';

const EXCEL_MAX_CELL_TEXT = 32_767;
export const MONEY_FORMAT = '#,##0.00';
/** Excel's number formats of the other kinds of amount: a price to 4 decimals, a quantity to 3, as needed. */
const AMOUNT_FORMATS: Record<AmountKind, string> = {
  money: MONEY_FORMAT,
  percent: MONEY_FORMAT,
  price: '#,##0.00##',
  quantity: '#,##0.###',
};
export const DATE_FORMAT = 'dd/mm/yyyy';

/** Excel's sheet-name rules: at most 31 characters, none of []:*?/\ and no apostrophe at either end. */
export function sheetName(title: string): string {
  const name = cleanText(title)
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '')
    .slice(0, 31)
    .trim();
  return name || 'Export';
}

type CellValue = string | number | Date | null;

/** The typed cell value: numbers and money as numbers, dates as real dates, the rest as text. */
export function excelValue(value: unknown, column: ExportColumn, job: ExportJob): CellValue {
  if (value === null || value === undefined || value === '') return null;
  switch (column.type) {
    case 'money':
    case 'number': {
      const number = spreadsheetNumber(
        value,
        column.type === 'money' ? (column.amount ?? 'money') : 'number',
      );
      if (number !== null) return number;
      break;
    }
    case 'date': {
      // Excel dates have no zone: the calendar day at UTC midnight is that day in any reader.
      const day = toDay(value, job.timeZone ?? UTILITY_TIME_ZONE);
      if (day) return new Date(Date.UTC(day.year, day.month - 1, day.day));
      break;
    }
  }
  const text = cleanText(
    formatCell(value, column.type, job.language, job.timeZone ?? UTILITY_TIME_ZONE, column.amount),
  );
  return text.length > EXCEL_MAX_CELL_TEXT ? text.slice(0, EXCEL_MAX_CELL_TEXT) : text;
}

const ZIP_BACKLOG_LIMIT = 4 * 1024 * 1024;

interface PipeState {
  writableLength?: number;
  _writableState?: { length?: number };
}

/**
 * Bytes of sheet XML written but not yet taken by the zip compressor. ExcelJS's sheet stream writes
 * into the zip entry without heeding back-pressure, so when rows come faster than zlib compresses,
 * the XML piles up (measured: all of it, ~0.4 kB a row). Reads ExcelJS 4.4 internals; 0 if they change.
 */
function zipBacklog(sheet: ExcelJS.Worksheet): number {
  const pipes = (sheet as unknown as { stream?: { pipes?: PipeState[] } }).stream?.pipes;
  if (!Array.isArray(pipes)) return 0;
  return pipes.reduce((sum, pipe) => sum + (pipe.writableLength ?? pipe._writableState?.length ?? 0), 0);
}

/** Lets zlib catch up before the next batch, so memory stays bounded whatever the row count. */
async function waitForZip(sheet: ExcelJS.Worksheet): Promise<void> {
  while (zipBacklog(sheet) > ZIP_BACKLOG_LIMIT) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function columnWidths(job: ExportJob, sample: Record<string, unknown>[]): number[] {
  return job.columns.map((column) => {
    let longest = [...column.label].length + 3; // room for the autofilter button
    for (const row of sample) {
      const shown = formatCell(
        row[column.id],
        column.type,
        job.language,
        job.timeZone ?? UTILITY_TIME_ZONE,
        column.amount,
      );
      const lines = shown.split(/\r?\n/);
      for (const line of lines) longest = Math.max(longest, [...line].length);
    }
    const floor = column.type === 'date' ? 12 : column.type === 'money' ? 12 : 8;
    return Math.min(60, Math.max(floor, longest + 2));
  });
}

/**
 * XLSX through ExcelJS's streaming writer: rows are committed batch by batch and zipped as they go,
 * so memory stays bounded. The first batch sizes the columns (they must be known before the first row).
 */
export function renderXlsx(job: ExportJob): Readable {
  const out = new PassThrough();
  const write = async () => {
    const batches = batchesOf(job.rows);
    const first = await batches.next();
    const firstBatch = first.done ? [] : first.value;
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    workbook.creator = 'Protocol';
    workbook.created = job.generatedAt ?? new Date();
    workbook.modified = workbook.created;
    workbook.title = job.title;
    const sheet = workbook.addWorksheet(sheetName(job.title), {
      views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
    });
    const widths = columnWidths(job, firstBatch);
    const styles: Partial<ExcelJS.Style>[] = job.columns.map((column) =>
      column.type === 'money'
        ? { numFmt: AMOUNT_FORMATS[column.amount ?? 'money'] }
        : column.type === 'date'
          ? { numFmt: DATE_FORMAT, alignment: { horizontal: 'left' } }
          : {},
    );
    sheet.columns = job.columns.map((column, index) => ({
      key: column.id,
      width: widths[index],
      style: styles[index],
    }));
    const header = sheet.addRow(job.columns.map((column) => cleanText(column.label)));
    header.font = { bold: true };
    header.alignment = { vertical: 'middle' };
    header.commit();

    let rowCount = 1;
    const writeBatch = async (batch: Record<string, unknown>[]) => {
      for (const row of batch) {
        const added = sheet.addRow(job.columns.map((column) => excelValue(row[column.id], column, job)));
        // Each cell gets a copy of its column's style, which ExcelJS then looks up by rendering it to
        // XML (most of the time of a large sheet); the column's own object it looks up by identity.
        styles.forEach((style, index) => {
          added.getCell(index + 1).style = style;
        });
        added.commit();
        rowCount++;
      }
      await letStreamsFlow();
      await waitForZip(sheet);
      await waitForDrain(out);
    };
    await writeBatch(firstBatch);
    for (let next = await batches.next(); !next.done; next = await batches.next()) {
      await writeBatch(next.value);
    }
    if (job.columns.length > 0) {
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: rowCount, column: job.columns.length } };
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
