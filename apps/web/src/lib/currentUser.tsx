import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AuthenticatedUser } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from './api.ts';
import { errorMessage } from './errors.ts';
import { FullPageLoader } from './guards.tsx';
import { SESSION_USER_KEY, useSession } from './session.tsx';

const UserContext = createContext<AuthenticatedUser | null>(null);

/**
 * Loads the signed-in user (GET /api/users/authenticatedUser) before any page behind the guard
 * renders; part of the signed-in chunk, so the sign-in page does not carry it.
 */
export function CurrentUserGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { token } = useSession();
  const query = useQuery({
    queryKey: [...SESSION_USER_KEY, token],
    queryFn: ({ signal }) => api.get<AuthenticatedUser>('/api/users/authenticatedUser', { signal }),
    enabled: token !== null,
    staleTime: 5 * 60_000,
  });

  if (query.data) return <UserContext.Provider value={query.data}>{children}</UserContext.Provider>;
  if (query.error) {
    return (
      <Box
        component="main"
        sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', textAlign: 'center', p: 3 }}
      >
        <Box>
          <Typography component="h1" variant="h5" gutterBottom>
            {t('errorPage.sessionFailed')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {errorMessage(t, query.error)}
          </Typography>
          <Button variant="contained" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </Box>
      </Box>
    );
  }
  return <FullPageLoader />;
}

/** The signed-in user; only inside CurrentUserGate (every page behind the guard). */
export function useUser(): AuthenticatedUser {
  const user = useContext(UserContext);
  if (!user) throw new Error('useUser outside CurrentUserGate');
  return user;
}
