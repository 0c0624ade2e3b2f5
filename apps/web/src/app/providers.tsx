import {
  hashKey,
  MutationCache,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  type QueryKey,
} from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Notifier } from '../components/Notifier.tsx';
import { OfflineIndicator } from '../components/OfflineIndicator.tsx';
import i18n from '../i18n/index.ts';
import { getCompanyInUse, isApiError } from '../lib/api.ts';
import { errorMessage } from '../lib/errors.ts';
import { notify } from '../lib/notifier.ts';
import { PreferencesProvider } from '../lib/preferences.tsx';
import { LoadingBar } from './LoadingBar.tsx';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { errorSnackbar?: boolean };
    mutationMeta: { errorSnackbar?: boolean };
  }
}

/** The general error handler (spec §8): a red snackbar with the translated server message. */
function showError(error: unknown) {
  if (isApiError(error) && error.status === 401) return; // the session handles it
  notify(errorMessage(i18n.t, error), 'error');
}

/** Queries that are the same whatever the company (the signed-in user, loaded before any company is known). */
const COMPANY_NEUTRAL = new Set<unknown>(['session']);

/**
 * The cache is per company in this one place: every query's hash names the company in use,
 * so after a switch (which mounts the page anew, lib/company.tsx) a query finds no answer and fetches
 * that company's, and switching back is served from the cache, while the call sites' keys say nothing of
 * the company. Chosen over a company item in every key because the keys then cannot forget it. The hash is
 * fixed when a query is built and an answer is stored on the query that asked, so one still on its way
 * after a switch lands under the company it was asked for. Filters (invalidateQueries, removeQueries)
 * match keys by prefix, so they reach every company's copy. The signed-in user is outside: its gate
 * renders before the company is known.
 */
export function companyQueryKeyHash(queryKey: QueryKey): string {
  return hashKey(COMPANY_NEUTRAL.has(queryKey[0]) ? queryKey : [{ company: getCompanyInUse() }, ...queryKey]);
}

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.errorSnackbar) showError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.errorSnackbar !== false) showError(error);
      },
    }),
    defaultOptions: {
      queries: {
        queryKeyHashFn: companyQueryKeyHash,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retry only what may pass on a second try: a dropped connection.
        retry: (count, error) => count < 2 && isApiError(error) && error.status === 0,
      },
      mutations: { retry: false },
    },
  });
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <PreferencesProvider>
      <QueryClientProvider client={queryClient}>
        <LoadingBar />
        {children}
        <Notifier />
        <OfflineIndicator />
      </QueryClientProvider>
    </PreferencesProvider>
  );
}
