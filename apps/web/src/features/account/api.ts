import type { UpdateAccountRequest, User } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

export const usersApi = {
  get: (id: number, signal?: AbortSignal) => api.get<User>(`/api/users/${id}`, { signal }),
  update: (id: number, body: UpdateAccountRequest) => api.put<User>(`/api/users/${id}`, body),
};

export const userKey = (id: number) => ['users', id] as const;
