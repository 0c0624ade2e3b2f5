// Types only: the sign-in page must not load zod (see scripts/size-report.mjs).
import type { ApiError, ErrorKey, FieldError } from '@protocol/contracts';
import { langFromPath } from './lang.ts';

export const TOKEN_KEY = 'jwttoken';

/** Client-side key for a request that never reached the server (spec §8 'Bad request'). */
export const NETWORK_ERROR_KEY = 'error.network';

type Params = Record<string, string | number>;

/** Every failed call ends in one of these; `key` and `params` are translated by the UI (spec §8). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly key: string;
  readonly params: Params;
  readonly fieldErrors: FieldError[];
  readonly requestId: string | undefined;

  constructor(body: ApiError) {
    super(body.message);
    this.name = 'ApiRequestError';
    this.status = body.status;
    this.key = body.key;
    this.params = body.params;
    this.fieldErrors = body.fieldErrors ?? [];
    this.requestId = body.requestId;
  }
}

export function isApiError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable (private mode): the session then lasts as long as the page
  }
}

/** The header naming the company in use: the server resolves it once per request. */
export const COMPANY_HEADER = 'X-Company-Id';

/**
 * The company in use, set by CompanyProvider (lib/company.tsx) as it renders and on a switch, cleared on
 * sign-out. Module state rather than a parameter, so no call site carries the company by hand.
 */
let companyInUse: number | null = null;

export function setCompanyInUse(companyId: number | null): void {
  companyInUse = companyId;
}

export function getCompanyInUse(): number | null {
  return companyInUse;
}

/** The company header of a request, empty when no company is in use. */
export function companyHeaders(companyId: number | null = companyInUse): Record<string, string> {
  return companyId === null ? {} : { [COMPANY_HEADER]: String(companyId) };
}

/**
 * An API address opened without fetch (a new tab's print page reads it from its own URL), which can
 * send no header: the company in use rides as `?companyid=`, which the server also accepts.
 */
export function withCompanyParam(path: string): string {
  if (companyInUse === null) return path;
  return `${path}${path.includes('?') ? '&' : '?'}companyid=${companyInUse}`;
}

let unauthorizedHandler: (() => void) | undefined;

/** The session registers what a 401 means: drop the token and go to the sign-in page. */
export function onUnauthorized(handler: (() => void) | undefined): void {
  unauthorizedHandler = handler;
}

/** The catalog key for an error answer without a JSON body (a proxy's 502, say). */
export function keyForStatus(status: number): ErrorKey {
  if (status === 401) return 'error.unauthorized';
  if (status === 403) return 'error.forbidden';
  if (status === 404) return 'error.not_found';
  if (status === 413) return 'error.payload_too_large';
  if (status === 429) return 'error.too_many_attempts';
  if (status >= 500) return 'error.server';
  return 'error.bad_data';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error shape of the contracts (apiErrorSchema), checked by hand to keep zod off this path. */
export function asApiError(value: unknown): ApiError | undefined {
  if (!isRecord(value) || typeof value.status !== 'number' || typeof value.key !== 'string') return undefined;
  const params = isRecord(value.params) ? (value.params as Record<string, string | number>) : {};
  const fieldErrors = Array.isArray(value.fieldErrors)
    ? value.fieldErrors.filter(
        (item): item is FieldError =>
          isRecord(item) && typeof item.field === 'string' && typeof item.key === 'string',
      )
    : undefined;
  return {
    status: value.status,
    key: value.key,
    params,
    message: typeof value.message === 'string' ? value.message : value.key,
    fieldErrors: fieldErrors?.map((item) => ({ ...item, params: isRecord(item.params) ? item.params : {} })),
    requestId: typeof value.requestId === 'string' ? value.requestId : undefined,
  };
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Do not treat a 401 as an expired session (the login call itself). */
  skipUnauthorized?: boolean;
  /** The company of this call when it is not the one in use (a reading queued offline under another). */
  companyId?: number | null;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  // The server's texts (errors, notifications) in the language of the page, not the browser's.
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': langFromPath(window.location.pathname),
    ...companyHeaders(options.companyId ?? companyInUse),
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiRequestError({
      status: 0,
      key: NETWORK_ERROR_KEY,
      params: {},
      message: 'Unable to connect. Try again later.',
    });
  }

  if (response.status === 401 && !options.skipUnauthorized && token) {
    storeToken(null);
    unauthorizedHandler?.();
  }

  const text = response.status === 204 ? '' : await response.text();
  let data: unknown;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }

  if (!response.ok) {
    throw new ApiRequestError(
      asApiError(data) ?? {
        status: response.status,
        key: keyForStatus(response.status),
        params: {},
        message: response.statusText || `HTTP ${response.status}`,
      },
    );
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('DELETE', path, { ...options, body }),
};
