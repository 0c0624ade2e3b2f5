import type { AuthenticatedUser } from '@protocol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, getToken, onUnauthorized, setCompanyInUse, storeToken, TOKEN_KEY } from './api.ts';
import { getInstallationEnv } from './env.ts';
import { langFromPath, localizePath } from './lang.ts';
import { forgetCachedApiAnswers } from './offlineCache.ts';

/** Query key of the signed-in user (GET /api/users/authenticatedUser), see currentUser.tsx. */
export const SESSION_USER_KEY = ['session', 'user'] as const;

interface Session {
  token: string | null;
  /** Stores the token; the guest-only guard then sends the user to `redirectTo` (or where they came from). */
  signIn: (token: string, redirectTo?: string) => void;
  redirectAfterSignIn: string | undefined;
  /** Forgets the session locally (no server call). */
  clear: () => void;
  /** POST /api/account/logout, then the identity provider's logout or the local /logout route. */
  logout: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** The token and what to do with it. The user record itself loads behind the guard (currentUser.tsx). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [token, setToken] = useState<string | null>(getToken);
  const redirectRef = useRef<string | undefined>(undefined);

  const forgetData = useCallback(() => {
    queryClient.removeQueries();
    setCompanyInUse(null);
  }, [queryClient]);

  const clear = useCallback(() => {
    storeToken(null);
    setToken(null);
    forgetData();
  }, [forgetData]);

  useEffect(() => {
    // 401 on any call but login: the session is over; the route guard goes to /login remembering the path.
    onUnauthorized(() => {
      setToken(null);
      forgetData();
    });
    const onStorage = (event: StorageEvent) => {
      if (event.key === TOKEN_KEY || event.key === null) setToken(getToken());
    };
    window.addEventListener('storage', onStorage);
    return () => {
      onUnauthorized(undefined);
      window.removeEventListener('storage', onStorage);
    };
  }, [forgetData]);

  const signIn = useCallback((newToken: string, redirectTo?: string) => {
    redirectRef.current = redirectTo;
    storeToken(newToken);
    setToken(newToken);
  }, []);

  const logout = useCallback(async () => {
    const lang = langFromPath(pathname);
    const user = queryClient.getQueryData<AuthenticatedUser>([...SESSION_USER_KEY, token]);
    try {
      await api.post('/api/account/logout', undefined, { skipUnauthorized: true });
    } catch (error) {
      console.warn('Logout call failed; the local session is dropped anyway', error);
    }
    await forgetCachedApiAnswers().catch((error) => console.warn('Could not empty the offline cache', error));
    const env = getInstallationEnv();
    if (user?.sso && env?.sso.logoutUrl) {
      storeToken(null);
      const back = encodeURIComponent(`${window.location.origin}/logout`);
      window.location.assign(
        `${env.sso.logoutUrl}?client_id=${encodeURIComponent(env.sso.clientId ?? '')}&post_logout_redirect_uri=${back}`,
      );
      return;
    }
    navigate(localizePath('/logout', lang), { replace: true });
  }, [navigate, pathname, queryClient, token]);

  const value = useMemo<Session>(
    () => ({ token, signIn, redirectAfterSignIn: redirectRef.current, clear, logout }),
    [token, signIn, clear, logout],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
