import type { Language } from '@protocol/contracts';
import type { Db } from '../../db/client.ts';

/**
 * What another module prints on a finance document below its totals (myDATA: MARK, UID and the QR
 * code): labelled lines and an optional QR code. Registered by name, so registering again replaces.
 */
export interface DocumentPrintExtra {
  lines: [label: string, value: string][];
  qr: string | null;
}
export type DocumentPrintHook = (
  db: Db,
  documentId: number,
  language: Language,
) => Promise<DocumentPrintExtra | null>;

const hooks = new Map<string, DocumentPrintHook>();

export function addDocumentPrintHook(name: string, hook: DocumentPrintHook): void {
  hooks.set(name, hook);
}

export async function documentPrintExtras(
  db: Db,
  documentId: number,
  language: Language,
): Promise<DocumentPrintExtra[]> {
  const extras = await Promise.all([...hooks.values()].map((hook) => hook(db, documentId, language)));
  return extras.filter((extra): extra is DocumentPrintExtra => extra !== null);
}
