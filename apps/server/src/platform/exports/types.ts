/**
 * The shapes of an export, apart from the writers: render.ts imports the writers, and the writers need
 * only these types, so no file of the folder imports its importer.
 */
import type { Readable } from 'node:stream';
import type { AmountKind } from '@protocol/contracts';
import type { ExportColumnType, ExportLanguage } from './format.ts';

export type ExportFormat = 'pdf' | 'excel' | 'csv' | 'word';

export interface ExportColumn {
  id: string;
  label: string;
  type: ExportColumnType;
  /** What a money column holds (a price, a percentage…), which decides its decimals; default money. */
  amount?: AmountKind;
}

export interface ExportJob {
  format: ExportFormat;
  /** e.g. 'Χειριστές': the sheet name, the document heading. */
  title: string;
  /** Yes/No of booleans and the number separators of pdf and docx. */
  language: ExportLanguage;
  /** In the user's view order, labels already translated. */
  columns: ExportColumn[];
  /**
   * Batches of rows keyed by column id. Raw values: enums already labels, dates as Date or ISO strings,
   * money as decimal strings, booleans as booleans. Read once, batch by batch.
   */
  rows: AsyncIterable<Record<string, unknown>[]>;
  generatedAt?: Date;
  /** The zone whose calendar day a date-time shows as; default Europe/Athens. */
  timeZone?: string;
}

export interface RenderedExport {
  stream: Readable;
  contentType: string;
  extension: string;
}

/** Where a company's own exports come from (app.ts wires the settings module's `export.*` settings). */
export interface CustomExports {
  /** The company's custom exports: label, export address and the list path it names. */
  of(companyId: number): Promise<{ label: string; uri: string; path: string }[]>;
  /** Which of `companyIds` has the utility number (general setting gen.deya_aa) `aaDeya`. */
  companyNumbered(companyIds: readonly number[], aaDeya: string): Promise<number | undefined>;
}
