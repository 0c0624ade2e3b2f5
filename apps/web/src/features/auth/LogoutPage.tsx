import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { api, getToken } from '../../lib/api.ts';
import { FullPageLoader } from '../../lib/guards.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useSession } from '../../lib/session.tsx';

/** /logout: clears any local session (revoking it if a token is still held) and goes to /login. */
export default function LogoutPage() {
  const { token, clear } = useSession();
  const localize = useLocalize();

  useEffect(() => {
    if (getToken()) {
      void api.post('/api/account/logout', undefined, { skipUnauthorized: true }).catch(() => undefined);
    }
    clear();
  }, [clear]);

  if (token) return <FullPageLoader />;
  return <Navigate to={localize('/login')} replace />;
}
