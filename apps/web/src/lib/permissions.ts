import { type AuthenticatedUser, hasPermission, type Permission } from '@protocol/contracts';
import { useCallback } from 'react';
import { useUser } from './currentUser.tsx';

/**
 * What the signed-in operator may do: `scope` is the effective permission list from the
 * server (groups, kind, super admin); a higher level includes the lower ones. The server enforces
 * the same rules; the web app only hides what would be refused.
 */
export function can(user: Pick<AuthenticatedUser, 'scope' | 'superAdmin'>, permission: Permission): boolean {
  return user.superAdmin || hasPermission(user.scope, permission);
}

/** Whether the signed-in operator holds `permission` (only behind the guard, like useUser). */
export function usePermission(permission: Permission): boolean {
  return can(useUser(), permission);
}

/** A `can(permission)` checker for the signed-in operator, for several checks in one component. */
export function useCan(): (permission: Permission) => boolean {
  const user = useUser();
  return useCallback((permission: Permission) => can(user, permission), [user]);
}
