import { errorKeys } from '@protocol/contracts';
import * as oidc from 'openid-client';
import { AppError } from './errors.ts';
import type { TokenService } from './tokens.ts';

/** What the browser carries between leaving for the provider and coming back (a signed cookie). */
export const SSO_STATE_COOKIE = 'protocol_sso';
const STATE_AUDIENCE = 'sso-state';
const STATE_MINUTES = 10;

export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
}

export interface SsoClaims {
  subject: string;
  username: string | undefined;
  email: string | undefined;
}

/** Single sign-on through any OpenID Connect provider (authorization code flow with PKCE). */
export class SsoService {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly settings: SsoSettings,
    private readonly tokens: TokenService,
  ) {}

  /** The provider's metadata, discovered once; a failed discovery is retried on the next call. */
  private config(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuer);
      this.configuration = oidc
        .discovery(
          issuer,
          this.settings.clientId,
          undefined,
          this.settings.clientSecret ? oidc.ClientSecretPost(this.settings.clientSecret) : oidc.None(),
          issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
        )
        .catch((error: unknown) => {
          this.configuration = undefined;
          throw error;
        });
    }
    return this.configuration;
  }

  async endSessionUrl(): Promise<string | null> {
    const metadata = (await this.config()).serverMetadata();
    return metadata.end_session_endpoint ?? null;
  }

  get clientId(): string {
    return this.settings.clientId;
  }

  /** The provider's sign-in address and the signed state to keep in a cookie. */
  async begin(
    redirectUri: string,
    returnTo: string,
  ): Promise<{ url: string; state: string; expiresAt: Date }> {
    const config = await this.config();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const expiresAt = new Date(Date.now() + STATE_MINUTES * 60_000);
    const cookie = await this.tokens.sign({ verifier, state, nonce, returnTo }, STATE_AUDIENCE, expiresAt);
    return { url: url.href, state: cookie, expiresAt };
  }

  /** Exchanges the code the provider sent to `/login` for the user's verified claims. */
  async complete(
    redirectUri: string,
    callbackParams: string,
    stateCookie: string | undefined,
  ): Promise<{ claims: SsoClaims; returnTo: string }> {
    const saved = stateCookie ? await this.tokens.verify(stateCookie, STATE_AUDIENCE) : null;
    if (!saved) throw new AppError(400, errorKeys.ssoFailed);
    const config = await this.config();
    const currentUrl = new URL(redirectUri);
    currentUrl.search = callbackParams;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: String(saved.verifier),
        expectedState: String(saved.state),
        expectedNonce: String(saved.nonce),
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no id_token claims');
      return {
        claims: {
          subject: claims.sub,
          username: typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined,
          email: typeof claims.email === 'string' ? claims.email : undefined,
        },
        returnTo: safeReturnPath(String(saved.returnTo ?? '/')),
      };
    } catch (error) {
      throw new AppError(401, errorKeys.ssoFailed, {}, undefined, error);
    }
  }
}

/** Only local paths: an open redirect would hand the session to another site. */
export function safeReturnPath(value: string): string {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/';
}
