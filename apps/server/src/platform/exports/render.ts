/**
 * Exports: list rows into real files (pdf, xlsx, csv, docx). Knows no business entity: the caller gives
 * translated column labels in the user's view order, and rows batch by batch (enums already as labels).
 */

import { UTILITY_TIME_ZONE } from '@protocol/contracts';
import { renderCsv } from './csv.ts';
import { renderDocx } from './docx.ts';
import { toDay } from './format.ts';
import { renderPdf } from './pdf.ts';
import type { ExportFormat, ExportJob, RenderedExport } from './types.ts';
import { renderXlsx } from './xlsx.ts';

export type { ExportColumn, ExportFormat, ExportJob, RenderedExport } from './types.ts';

export const EXPORT_FORMATS: Record<ExportFormat, { contentType: string; extension: string }> = {
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
  excel: {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extension: 'xlsx',
  },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  word: {
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extension: 'docx',
  },
};

/**
 * Starts rendering and answers at once with the file's stream. The rows are read as the stream is read;
 * a failure (of the rows or of the writer) destroys the stream with that error.
 */
export function renderExport(job: ExportJob): RenderedExport {
  const format = EXPORT_FORMATS[job.format];
  if (!format) throw new Error(`unknown export format: ${String(job.format)}`);
  const stream =
    job.format === 'csv'
      ? renderCsv(job)
      : job.format === 'excel'
        ? renderXlsx(job)
        : job.format === 'word'
          ? renderDocx(job)
          : renderPdf(job);
  return { stream, ...format };
}

/**
 * The default file name (spec §7: a Greek default name): the title and the day, e.g.
 * 'Χειριστές_21-11-2026.xlsx'. Letters (Greek included) and digits are kept, anything else becomes '_'.
 */
export function exportFileName(
  title: string,
  format: ExportFormat,
  at: Date,
  timeZone = UTILITY_TIME_ZONE,
): string {
  const base =
    title
      .normalize('NFC')
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 80)
      .replace(/_+$/, '') || 'export';
  const day = toDay(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = day ? `${pad(day.day)}-${pad(day.month)}-${day.year}` : 'export';
  return `${base}_${date}.${EXPORT_FORMATS[format].extension}`;
}

/**
 * A Content-Disposition value for the file name: an ASCII fallback plus the UTF-8 name (RFC 6266/5987),
 * so browsers save the Greek name.
 */
export function contentDisposition(fileName: string): string {
  const stripped = fileName
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\%;]/g, '_')
    .replace(/^[_\s.-]+/, '');
  const ascii = /^[A-Za-z]/.test(stripped) ? stripped : `export_${stripped}`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
