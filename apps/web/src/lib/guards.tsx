import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useLocalize } from './language.tsx';
import { useSession } from './session.tsx';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}

/**
 * Pages that need a signed-in user: signed out means /login, remembering the path, /en prefix
 * and query included (spec §4). The user record then loads in CurrentUserGate.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { token } = useSession();
  const location = useLocation();
  const localize = useLocalize();
  if (!token) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={localize('/login')} replace state={{ from }} />;
  }
  return children ?? <Outlet />;
}

interface FromState {
  from?: unknown;
}

/** Guest-only pages (/login): a signed-in user goes home, or back to where they were going. */
export function GuestOnly() {
  const { token, redirectAfterSignIn } = useSession();
  const location = useLocation();
  const localize = useLocalize();
  if (token) {
    const from = (location.state as FromState | null)?.from;
    const target =
      redirectAfterSignIn ?? (typeof from === 'string' && from.startsWith('/') ? from : localize('/'));
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}
