import type { Permission } from '@protocol/contracts';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useLocalize } from '../lib/language.tsx';
import { usePermission } from '../lib/permissions.ts';

interface Props {
  requires: Permission;
  children: ReactNode;
}

/**
 * A page declared with a permission (router.tsx): without it the operator is sent to /forbidden,
 * in the same language; the refused address travels in the state. Its own chunk, off the sign-in page.
 */
export default function RequirePermission({ requires, children }: Props) {
  const allowed = usePermission(requires);
  const localize = useLocalize();
  const location = useLocation();
  if (!allowed) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={localize('/forbidden')} replace state={{ from, requires }} />;
  }
  return children;
}
