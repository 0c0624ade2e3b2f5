import type { ExportFormat, ExportRequest, Language } from '@protocol/contracts';
import { api, withCompanyParam } from '../../lib/api.ts';
import { saveBlob } from '../../lib/files.ts';
import { localizePath } from '../../lib/lang.ts';

export interface ExportJob {
  /** The list address with its query string, without page and size. */
  uri: string;
  format: ExportFormat;
  columns: string[];
  lang: Language;
  title: string;
}

/** POST /api/export, then the file is saved under the name the server gave. */
export async function downloadExport(job: ExportJob): Promise<void> {
  await saveExport({
    uri: job.uri,
    params: { format: job.format, columns: job.columns, lang: job.lang, title: job.title },
  });
}

/**
 * An export whose address says it all (a getForEntity entry: a company's own export), posted as
 * spec §7 says, with `params: null`.
 */
export async function downloadExportAddress(uri: string): Promise<void> {
  await saveExport({ uri, params: null });
}

async function saveExport(request: ExportRequest): Promise<void> {
  const answer = await api.post<{ file: string; fileName: string }>('/api/export', request);
  const binary = atob(answer.file);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  saveBlob(new Blob([bytes], { type: mimeOf(answer.fileName) }), answer.fileName);
}

function mimeOf(fileName: string): string {
  const extension = fileName.split('.').pop()?.toLowerCase();
  switch (extension) {
    case 'pdf':
      return 'application/pdf';
    case 'xlsx':
      return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    case 'docx':
      return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    case 'csv':
      return 'text/csv;charset=utf-8';
    default:
      return 'application/octet-stream';
  }
}

/** The print page's address: outside the shell, in the current language. */
export function printPath(job: Omit<ExportJob, 'format'>): string {
  const params = new URLSearchParams();
  params.set('uri', job.uri);
  params.set('columns', job.columns.join(','));
  params.set('title', job.title);
  return localizePath(`/print?${params.toString()}`, job.lang);
}

export function openPrint(job: Omit<ExportJob, 'format'>): void {
  // The new tab reads the list from its own URL, with no company of its own: the address names it.
  window.open(printPath({ ...job, uri: withCompanyParam(job.uri) }), '_blank', 'noopener');
}
