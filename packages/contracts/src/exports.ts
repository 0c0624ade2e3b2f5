import { z } from 'zod';

/** Spec §3 export formats: 1 pdf, 2 excel, 3 csv, 4 word (0 'no save' is not a file). */
export const exportFormats = { pdf: 1, excel: 2, csv: 3, word: 4 } as const;
export type ExportFormat = keyof typeof exportFormats;

/**
 * POST /api/export: `uri` is the list address as the screen asks for it (filters, sort, search in
 * its query string, and the export parameters of `exportUriParamsSchema`); `params` says the format
 * (else the address's, else Excel), the columns in order and the language, overriding the address.
 */
export const exportRequestSchema = z.object({
  uri: z.string().min(1).max(8000),
  params: z
    .object({
      format: z.enum(['pdf', 'excel', 'csv', 'word']).optional(),
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

/**
 * The export parameters an export address may carry in its query beside the list's own filters
 * (getForEntity answers `…/search?format=csv`, which POST /api/export accepts with `params: null`).
 */
export const exportUriParamsSchema = z.object({
  format: z.enum(['pdf', 'excel', 'csv', 'word']).optional(),
  columns: z
    .string()
    .max(4000)
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(z.string().max(100)).max(200))
    .optional(),
  lang: z.enum(['el', 'en']).optional(),
  title: z.string().trim().max(200).optional(),
});
export const EXPORT_URI_PARAMS = ['format', 'columns', 'lang', 'title'] as const;

/**
 * A company's own exports (spec §7 getForEntity 'custom') are its general settings named
 * `export.<name>`: the value is a list's export address with its filters, sort, columns, format and
 * `title=` (the export's label and file title), e.g.
 * `/api/onlineForms/search?format=csv&title=Ανοιχτές αιτήσεις&status=eq(0)`.
 */
export const CUSTOM_EXPORT_SETTING_PREFIX = 'export.';
const EXPORT_LIST_PATH = /^\/api\/[A-Za-z0-9_/-]+\/search$/;

/** A custom export setting's value as an export entry (label and address), or undefined if it is not one. */
export function customExportOf(
  value: string | null,
): { label: string; uri: string; path: string } | undefined {
  if (!value) return undefined;
  const [path = '', search = ''] = value.trim().split('?', 2);
  if (!EXPORT_LIST_PATH.test(path)) return undefined;
  const query = new URLSearchParams(search);
  const params = exportUriParamsSchema.safeParse({
    format: query.get('format') ?? undefined,
    columns: query.get('columns') ?? undefined,
    lang: query.get('lang') ?? undefined,
    title: query.get('title') ?? undefined,
  });
  // The company is the one whose setting it is: getForEntity adds it.
  if (!params.success || !params.data.format || !params.data.title || query.has('companyid'))
    return undefined;
  return { label: params.data.title, uri: value.trim(), path };
}
