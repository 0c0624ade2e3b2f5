import type { SaveUserGroupRequest, UserGroup, UserListItem } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

/** User groups: the list engine's search, one group, create, change, delete; all users:admin. */
export const GROUPS_SEARCH_URL = '/api/users/groups/search';
export const GROUPS_LIST_META_KEY = 'userGroups.list';

export const groupsApi = {
  get: (id: number, signal?: AbortSignal) => api.get<UserGroup>(`/api/users/groups/${id}`, { signal }),
  /** The new group belongs to the company in use. */
  create: (body: SaveUserGroupRequest) => api.post<UserGroup>('/api/users/groups', body),
  update: (id: number, body: SaveUserGroupRequest) => api.put<UserGroup>(`/api/users/groups/${id}`, body),
  deleteMany: (ids: number[]) => api.delete<void>('/api/users/groups', { ids }),
  /** Every operator the signed-in admin may see, for the members picker. */
  operators: (signal?: AbortSignal) =>
    api.get<{ content: UserListItem[] }>('/api/users/search?page=0&size=-1', { signal }),
};

/** Everything cached about groups; a group is `[...groupsKey, id]`. */
export const groupsKey = ['userGroups'] as const;
export const groupKey = (id: number) => ['userGroups', id] as const;
export const operatorsKey = ['users', 'options'] as const;
