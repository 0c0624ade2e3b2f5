import type { LoginRequest, LoginResponse } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

export interface SsoCallbackResponse {
  jwttoken: string;
  returnTo: string;
}

export const authApi = {
  login: (body: LoginRequest) =>
    api.post<LoginResponse>('/api/account/login', body, { skipUnauthorized: true }),
  ssoCallback: (callbackParams: string) =>
    api.post<SsoCallbackResponse>(
      '/api/account/sso/callback',
      { callbackParams },
      { skipUnauthorized: true },
    ),
};

/** Where single sign-on starts: a full-page navigation to the server, which redirects to the provider. */
export function ssoAuthorizeUrl(returnTo: string): string {
  return `/api/account/sso/authorize?returnTo=${encodeURIComponent(returnTo)}`;
}

/** Only paths of this application: never an absolute or protocol-relative address. */
export function safeReturnPath(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\')
  ) {
    return '/';
  }
  return value;
}
