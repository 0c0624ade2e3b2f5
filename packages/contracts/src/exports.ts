import { z } from 'zod';

/** Spec §3 export formats: 1 pdf, 2 excel, 3 csv, 4 word (0 'no save' is not a file). */
export const exportFormats = { pdf: 1, excel: 2, csv: 3, word: 4 } as const;
export type ExportFormat = keyof typeof exportFormats;

/**
 * POST /api/export: `uri` is the list address as the screen asks for it (filters, sort, search in
 * its query string); `params` says the format, the columns in order and the language.
 */
export const exportRequestSchema = z.object({
  uri: z.string().min(1).max(8000),
  params: z
    .object({
      format: z.enum(['pdf', 'excel', 'csv', 'word']).default('excel'),
      columns: z.array(z.string().max(100)).max(200).optional(),
      lang: z.enum(['el', 'en']).optional(),
      title: z.string().max(200).optional(),
    })
    .nullable(),
});
export type ExportRequest = z.infer<typeof exportRequestSchema>;

export const exportResponseSchema = z.object({ file: z.string(), fileName: z.string() });

/** Spec §3 'Export entry: uri, label'. */
export const exportEntrySchema = z.object({ uri: z.string(), label: z.string() });
export const exportListSchema = z.object({
  standard: z.array(exportEntrySchema),
  custom: z.array(exportEntrySchema),
});
