import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Notifier } from '../components/Notifier.tsx';
import i18n from '../i18n/index.ts';
import { isApiError } from '../lib/api.ts';
import { errorMessage } from '../lib/errors.ts';
import { notify } from '../lib/notifier.ts';
import { LoadingBar } from './LoadingBar.tsx';
import { OfflineIndicator } from './OfflineIndicator.tsx';
import { PreferencesProvider } from './preferences.tsx';

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
