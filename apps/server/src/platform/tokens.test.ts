import { describe, expect, it } from 'vitest';
import { createTokenService } from './tokens.ts';

const SECRET = 'tokens-test-secret-0123456789abcdef0123';

describe('token verification (remembered for a minute, never past the token)', () => {
  it('answers the same claims again, for its audience only, and nothing for a tampered token', async () => {
    const tokens = createTokenService(SECRET);
    const token = await tokens.sign({ sid: 's1', sub: '7' }, 'session', new Date(Date.now() + 3_600_000));
    expect(await tokens.verify(token, 'session')).toMatchObject({ sid: 's1', sub: '7' });
    expect(await tokens.verify(token, 'session')).toMatchObject({ sid: 's1', sub: '7' });
    expect(await tokens.verify(token, 'sso-state')).toBeNull();
    const [head, body, signature] = token.split('.');
    const forged = `${head}.${body}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`;
    expect(await tokens.verify(forged, 'session')).toBeNull();
    // Another secret (another installation) never accepts it, remembered or not.
    expect(await createTokenService(`${SECRET}-other`).verify(token, 'session')).toBeNull();
  });

  it('refuses a remembered token once it has expired', async () => {
    const tokens = createTokenService(SECRET);
    const token = await tokens.sign({ sid: 's2', sub: '7' }, 'session', new Date(Date.now() + 2_000));
    expect(await tokens.verify(token, 'session')).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await tokens.verify(token, 'session')).toBeNull();
  });
});
