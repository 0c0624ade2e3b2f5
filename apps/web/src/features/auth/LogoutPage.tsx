import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { FullPageLoader } from '../../app/guards.tsx';
import { useLocalize } from '../../app/language.tsx';
import { useSession } from '../../app/session.tsx';
import { api, getToken } from '../../lib/api.ts';

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
