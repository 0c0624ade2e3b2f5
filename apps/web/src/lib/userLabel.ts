import type { UserListItem } from '@protocol/contracts';

/** An operator as lists and pickers show them: "last first", or the user name without a name. */
export function userLabel(user: Pick<UserListItem, 'lastname' | 'firstname' | 'username'>): string {
  const name = `${user.lastname ?? ''} ${user.firstname ?? ''}`.trim();
  return name || user.username;
}
