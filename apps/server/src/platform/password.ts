import { type Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): strong and fast enough for a busy login page.
const options = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Verified against when the user does not exist, so the answer takes as long either way. */
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$lmckQnRhSdTtK3QsqbsGvA$ymKhdSlnZorg1D2V67oyj6zRMnM6nvoLriRyw1Bw2Xs';

export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), options);
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  try {
    const ok = await verify(stored ?? DUMMY_HASH, password.normalize('NFC'));
    return ok && stored !== null;
  } catch {
    return false;
  }
}
