import type { InstallationEnv } from '@protocol/contracts';
import { useSyncExternalStore } from 'react';
import { api } from './api.ts';

/**
 * GET /api/installation/env: called once at start and kept as the installation's settings; a
 * failure is only logged (spec §7). A tiny store rather than a query, so the sign-in page needs
 * no query observer.
 */
let env: InstallationEnv | undefined;
let started = false;
const listeners = new Set<() => void>();

export function loadInstallationEnv(): void {
  if (started) return;
  started = true;
  api
    .get<InstallationEnv>('/api/installation/env')
    .then((value) => {
      env = value;
      for (const listener of listeners) listener();
    })
    .catch((error: unknown) => console.error('Could not load the installation environment', error));
}

export function getInstallationEnv(): InstallationEnv | undefined {
  return env;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useInstallationEnv(): InstallationEnv | undefined {
  return useSyncExternalStore(subscribe, getInstallationEnv);
}
