import { BLOB_URL_LIFETIME_MS, blobUrl, fetchFile } from '../../lib/files.ts';

/**
 * Opens the document's PDF in a new tab, printing it when asked; with pop-ups blocked it prints from
 * a hidden frame of this page. Returns false when it could not be shown.
 */
export async function openPdf(url: string, print: boolean): Promise<boolean> {
  const objectUrl = blobUrl(await (await fetchFile(url)).blob(), 'application/pdf');
  const win = window.open(objectUrl, '_blank');
  if (win) {
    if (print) win.addEventListener('load', () => win.print(), { once: true });
    return true;
  }
  if (!print) return false;
  const frame = window.document.createElement('iframe');
  Object.assign(frame.style, { position: 'fixed', width: '0', height: '0', border: '0' });
  frame.dataset.testid = 'finance-print-frame';
  frame.src = objectUrl;
  frame.onload = () => frame.contentWindow?.print();
  window.document.body.appendChild(frame);
  setTimeout(() => frame.remove(), BLOB_URL_LIFETIME_MS);
  return true;
}
