import { z } from 'zod';
import { type EncodingCodeDefinition, encodingLevels } from './encoding-code.ts';
import { importReportSchema } from './imports.ts';

/** The largest register file accepted (100,000 consumers fit in a few MB). */
export const CONSUMER_IMPORT_MAX_BYTES = 25 * 1024 * 1024;

/** The columns after the code's levels, with their Greek headers (the template's and the file's). */
export const consumerImportColumns = [
  { key: 'vatnumber', header: 'ΑΦΜ ιδιοκτήτη' },
  { key: 'lastname', header: 'Επώνυμο ή επωνυμία ιδιοκτήτη' },
  { key: 'firstname', header: 'Όνομα ιδιοκτήτη' },
  { key: 'supplyAddress', header: 'Διεύθυνση παροχής' },
  { key: 'supplyPostalCode', header: 'Τ.Κ. παροχής' },
  { key: 'usage', header: 'Κωδικός χρήσης' },
  { key: 'connectionDate', header: 'Ημερομηνία σύνδεσης' },
  { key: 'status', header: 'Κατάσταση (0, 1, 9)' },
  { key: 'serialNumber', header: 'Σειριακός αριθμός υδρομετρητή' },
  { key: 'digits', header: 'Ψηφία υδρομετρητή' },
  { key: 'initialReading', header: 'Ένδειξη υδρομετρητή' },
] as const;

const levelHeaders: Record<number, string> = {
  1: 'Τομέας',
  2: 'Δρομολόγιο',
  3: 'Τμήμα',
  4: 'Περιοχή',
  5: 'Διεύθυνση (κωδικός)',
  6: 'Κτίριο',
  7: 'Πρόσθετο πεδίο',
};

/** The Greek headers of the code's levels: one per level, the last the consumer's number. */
export function consumerImportLevelHeaders(def: EncodingCodeDefinition): string[] {
  const levels = encodingLevels(def);
  const headers = levels.map((l, i) =>
    i === levels.length - 1 ? 'Αριθμός καταναλωτή' : (levelHeaders[l.type ?? 7] ?? 'Επίπεδο'),
  );
  // Two levels of one type (two custom fields) are told apart by their level.
  return headers.map((h, i) =>
    headers.indexOf(h) !== i || headers.lastIndexOf(h) !== i ? `${h} ${i + 1}` : h,
  );
}

/** What an import job answers when it ends (its `result`). */
export const consumerImportResultSchema = importReportSchema.extend({
  created: z.number().int(),
  updated: z.number().int(),
  tradersCreated: z.number().int(),
  metersInstalled: z.number().int(),
});
export type ConsumerImportResult = z.infer<typeof consumerImportResultSchema>;

/** POST /api/protocol/consumers/import answers the queued job. */
export const consumerImportStartSchema = z.object({ jobId: z.number().int() });
