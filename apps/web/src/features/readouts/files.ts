import { ApiRequestError, getToken, NETWORK_ERROR_KEY } from '../../lib/api.ts';

/** How long a file's blob: URL lives (the browser has saved or shown it by then). */
const URL_LIFETIME_MS = 5 * 60_000;

/** Saves a file of the API under `fileName`, fetched with the session's token (a plain link has none). */
export async function downloadFile(url: string, fileName: string): Promise<void> {
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
  const objectUrl = URL.createObjectURL(await response.blob());
  const link = window.document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(objectUrl), URL_LIFETIME_MS);
}
