import type { CreateUserRequest, UpdateAccountRequest, UpdateUserRequest, User } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

/** Operators (spec §2 /users): one operator, create, update (own account or an admin's edit). */
export const usersApi = {
  get: (id: number, signal?: AbortSignal) => api.get<User>(`/api/users/${id}`, { signal }),
  /** The new operator joins the company in use. */
  create: (body: CreateUserRequest) => api.post<User>('/api/users', body),
  update: (id: number, body: UpdateUserRequest | UpdateAccountRequest) =>
    api.put<User>(`/api/users/${id}`, body),
};

export const userKey = (id: number) => ['users', id] as const;
/** Everything cached about operators (the list pages included). */
export const usersKey = ['users'] as const;
