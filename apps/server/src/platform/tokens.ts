import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'protocol';
/** Only this algorithm is accepted, so a token can never pick its own (e.g. 'none'). */
const ALGORITHMS = ['HS256'];

export interface TokenService {
  sign(claims: Record<string, unknown>, audience: string, expiresAt: Date): Promise<string>;
  verify(token: string, audience: string): Promise<Record<string, unknown> | null>;
}

/**
 * Tokens already verified, by audience and token string, for at most a minute: a client sends the
 * same token on every request, and checking its signature again each time costs more CPU than the
 * rest of a small request's authentication. Only the signature and claims are remembered; whether
 * the session is still open is read from the database on every request (auth.ts), so a sign-out on
 * any node is refused at once on every node.
 */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, { payload: Record<string, unknown>; until: number }>();
  const check = async (token: string, audience: string) => {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ALGORITHMS, issuer: ISSUER, audience });
      return payload;
    } catch {
      return null;
    }
  };
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
      const cacheKey = `${audience} ${token}`;
      const now = Date.now();
      const known = verified.get(cacheKey);
      if (known && known.until > now) return known.payload;
      const payload = await check(token, audience);
      if (!payload) return null;
      // Never past the token's own expiry.
      const until = Math.min(
        now + VERIFIED_TTL_MS,
        typeof payload.exp === 'number' ? payload.exp * 1000 : now,
      );
      if (verified.size >= VERIFIED_MAX) verified.clear();
      verified.set(cacheKey, { payload, until });
      return payload;
    },
  };
}
