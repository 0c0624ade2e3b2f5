import type { UserListItem } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

/** The operators list's calls (the edit page has its own). */
export const USERS_SEARCH_URL = '/api/users/search';
export const USERS_META_URL = '/api/users/meta';
export const USERS_LIST_META_KEY = 'users.list';

export const usersListApi = {
  /** Spec §6: the server refuses deleting operators (error.delete_users_forbidden). */
  deleteMany: (ids: UserListItem['id'][]) => api.delete<void>('/api/users', { ids }),
};
