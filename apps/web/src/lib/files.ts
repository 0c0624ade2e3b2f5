import {
  ApiRequestError,
  asApiError,
  companyHeaders,
  getToken,
  keyForStatus,
  NETWORK_ERROR_KEY,
} from './api.ts';
import { langFromPath } from './lang.ts';

/** How long a file's blob: URL lives (the browser has shown, printed or saved it by then). */
export const BLOB_URL_LIFETIME_MS = 5 * 60_000;

/**
 * A call of the API the JSON client cannot make: a file down (a PDF, a sheet) or up (an import), with
 * the session's token, which a plain link or <iframe src> would not carry. A refusal is the
 * ApiRequestError its body carries (as the JSON client's), a lost connection the network error.
 */
export async function fetchFile(
  url: string,
  init: { method?: string; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<Response> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      body: init.body,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...companyHeaders(),
        ...init.headers,
      },
    });
  } catch {
    throw new ApiRequestError({ status: 0, key: NETWORK_ERROR_KEY, params: {}, message: 'network' });
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    const key = keyForStatus(response.status);
    throw new ApiRequestError(
      asApiError(body) ?? { status: response.status, key, params: {}, message: response.statusText || key },
    );
  }
  return response;
}

/** The header that has the server answer its messages in the page's language. */
export const pageLanguage = (): Record<string, string> => ({
  'Accept-Language': langFromPath(window.location.pathname),
});

/**
 * A file sent up (a FormData, or the file itself as `contentType`) to an endpoint that answers JSON
 * (an import's `{ jobId }`); its messages in the page's language.
 */
export async function uploadFile<T>(url: string, body: FormData | Blob, contentType?: string): Promise<T> {
  const response = await fetchFile(url, {
    method: 'POST',
    body,
    headers: { ...pageLanguage(), ...(contentType ? { 'Content-Type': contentType } : {}) },
  });
  return (await response.json()) as T;
}

/** A blob: URL of `blob` (as `type` when given), revoked once the browser is done with it. */
export function blobUrl(blob: Blob, type?: string): string {
  const url = URL.createObjectURL(type ? new Blob([blob], { type }) : blob);
  setTimeout(() => URL.revokeObjectURL(url), BLOB_URL_LIFETIME_MS);
  return url;
}

/** A file of the API in a new tab (a PDF as `application/pdf`); the tab, or null with pop-ups blocked. */
export async function openFile(url: string, type?: string): Promise<Window | null> {
  const response = await fetchFile(url);
  return window.open(blobUrl(await response.blob(), type), '_blank');
}

/** A file of the API saved under `fileName`. */
export async function saveFile(url: string, fileName: string): Promise<void> {
  const response = await fetchFile(url);
  saveBlob(await response.blob(), fileName);
}

/** A blob in hand saved under `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const link = document.createElement('a');
  link.href = blobUrl(blob);
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
