import type { CompanyCredentials, SaveCompanyCredentials } from '@protocol/contracts';
import type { SecretBox } from '../../platform/secrets.ts';

/** What is kept (encrypted as one JSON value): user names and secrets together. */
interface StoredCredentials {
  aadeUsername?: string | null;
  aadeSubscriptionKey?: string;
  registryUsername?: string | null;
  registryPassword?: string;
  smtpHost?: string | null;
  smtpPort?: number | null;
  smtpUsername?: string | null;
  smtpPassword?: string;
  smtpFrom?: string | null;
}

const SECRETS = ['aadeSubscriptionKey', 'registryPassword', 'smtpPassword'] as const;

export function readCredentials(box: SecretBox, sealed: string | null): StoredCredentials {
  return sealed ? (JSON.parse(box.open(sealed)) as StoredCredentials) : {};
}

/** A save: user names replace, secrets are kept when absent, cleared with '', replaced otherwise. */
export function mergeCredentials(
  current: StoredCredentials,
  change: SaveCompanyCredentials,
): StoredCredentials {
  const next: StoredCredentials = { ...current };
  for (const [key, value] of Object.entries(change) as [keyof SaveCompanyCredentials, unknown][]) {
    if (value === undefined) continue;
    if ((SECRETS as readonly string[]).includes(key)) {
      if (value === '') delete next[key as (typeof SECRETS)[number]];
      else next[key as (typeof SECRETS)[number]] = String(value);
    } else {
      (next as Record<string, unknown>)[key] = value === '' ? null : value;
    }
  }
  return next;
}

/** The credentials as the browser may see them: never a secret, only whether it is set. */
export function publicCredentials(stored: StoredCredentials): CompanyCredentials {
  return {
    aadeUsername: stored.aadeUsername ?? null,
    aadeSubscriptionKeySet: Boolean(stored.aadeSubscriptionKey),
    registryUsername: stored.registryUsername ?? null,
    registryPasswordSet: Boolean(stored.registryPassword),
    smtpHost: stored.smtpHost ?? null,
    smtpPort: stored.smtpPort ?? null,
    smtpUsername: stored.smtpUsername ?? null,
    smtpPasswordSet: Boolean(stored.smtpPassword),
    smtpFrom: stored.smtpFrom ?? null,
  };
}
