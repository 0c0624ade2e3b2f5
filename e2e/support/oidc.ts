import type { Server } from 'node:http';
import Provider from 'oidc-provider';

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback, with its development
 * sign-in screens: any login name signs in as that account, whose preferred_username is the name.
 */
export async function startIdentityProvider(port: number, appBaseUrl: string): Promise<TestIdentityProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'protocol-e2e';
  const clientSecret = 'protocol-e2e-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${appBaseUrl}/login`],
        post_logout_redirect_uris: [`${appBaseUrl}/logout`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, preferred_username: id, email: `${id}@idp.example`, name: id };
        },
      };
    },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['e2e-cookie-key-0123456789'] },
  });
  const server: Server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
