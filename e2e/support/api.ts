import { ADMIN_PASSWORD, type E2E } from './harness.ts';

/** An answer of the API: its status and its JSON body (null when the body is empty). */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
export type ApiAnswer = { status: number; body: any };

/**
 * The app's HTTP API called as one signed-in user, for setting up data and checking what a screen
 * saved: `await api('POST', '/api/traders', trader)` gives `{ status, body }`; `api.fetch(url)` is
 * the plain answer, for files (PDFs, exports).
 */
export interface Api {
  (method: string, url: string, body?: unknown): Promise<ApiAnswer>;
  fetch(url: string, init?: RequestInit): Promise<Response>;
}

/**
 * Signs in to the API (as the administrator unless told) and returns its caller:
 *
 * ```ts
 * let e2e: E2E;
 * let api: Api;
 * beforeAll(async () => {
 *   e2e = await startE2E();
 *   api = await signInApi(e2e);
 * });
 * ```
 */
export async function signInApi(e2e: E2E, username = 'admin', password = ADMIN_PASSWORD): Promise<Api> {
  const login = await fetch(`${e2e.baseUrl}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const token: string = (await login.json()).jwttoken;
  const send = (url: string, init: RequestInit = {}) =>
    fetch(`${e2e.baseUrl}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  const api = async (method: string, url: string, body?: unknown): Promise<ApiAnswer> => {
    const response = await send(url, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  return Object.assign(api, { fetch: send });
}

/** The id of the row with this code (routes, usages, policies… as the API lists them). */
export const idOf = (rows: { id: number; code: string }[], code: string): number | undefined =>
  rows.find((r) => r.code === code)?.id;
