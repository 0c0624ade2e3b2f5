import { ApiRequestError, getToken, NETWORK_ERROR_KEY } from '../../lib/api.ts';

/** How long a PDF's blob: URL lives (the viewer and the print dialog have it by then). */
const URL_LIFETIME_MS = 5 * 60_000;

/** A file with the session's Bearer token (a plain link would carry none). */
async function fetchFile(url: string): Promise<Blob> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiRequestError({ status: 0, key: NETWORK_ERROR_KEY, params: {}, message: 'network' });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as {
      key?: string;
      params?: Record<string, string>;
    };
    const key = body.key ?? 'error.server';
    throw new ApiRequestError({ status: response.status, key, params: body.params ?? {}, message: key });
  }
  return response.blob();
}

/**
 * Opens the document's PDF in a new tab, printing it when asked; with pop-ups blocked it prints from
 * a hidden frame of this page. Returns false when it could not be shown.
 */
export async function openPdf(url: string, print: boolean): Promise<boolean> {
  const blob = await fetchFile(url);
  const objectUrl = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  setTimeout(() => URL.revokeObjectURL(objectUrl), URL_LIFETIME_MS);
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
  setTimeout(() => frame.remove(), URL_LIFETIME_MS);
  return true;
}

/** Saves a file (e.g. an Excel export) under `fileName`, fetched with the session's token. */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const blob = await fetchFile(url);
  const objectUrl = URL.createObjectURL(blob);
  const link = window.document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(objectUrl), URL_LIFETIME_MS);
}
