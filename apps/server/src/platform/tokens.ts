import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'protocol';
/** Only this algorithm is accepted, so a token can never pick its own (e.g. 'none'). */
const ALGORITHMS = ['HS256'];

export interface TokenService {
  sign(claims: Record<string, unknown>, audience: string, expiresAt: Date): Promise<string>;
  verify(token: string, audience: string): Promise<Record<string, unknown> | null>;
}

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    sign: (claims, audience, expiresAt) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(key),
    verify: async (token, audience) => {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ALGORITHMS, issuer: ISSUER, audience });
        return payload;
      } catch {
        return null;
      }
    },
  };
}
