import type { AppNotification } from '@protocol/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { api } from './api.ts';

/**
 * The operator's notifications (spec §7), shared by the bell in the top bar and the /notifications
 * page: the same calls and one query key, so marking read in one refreshes the other.
 */
export const NOTIFICATIONS_KEY = ['notifications'] as const;
export const NOTIFICATIONS_SEARCH_URL = '/api/notification/search';

export const notificationsApi = {
  unread: (signal?: AbortSignal) =>
    api.get<{ count: number }>('/api/notification/getUnread', { signal }).then((answer) => answer.count),
  latest: (signal?: AbortSignal) => api.get<AppNotification[]>('/api/notification', { signal }),
  markOne: (id: number) => api.post<void>(`/api/notification/${id}/markRead`),
  markMany: (ids: number[]) => api.post<{ updated: number }>('/api/notification/markRead', { ids }),
  markAll: () => api.post<{ updated: number }>('/api/notification/markAllRead'),
};

/** After marking read: the count, the bell's list and the /notifications table (the DataTable's key). */
export const refreshNotifications = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
    queryClient.invalidateQueries({ queryKey: ['list', NOTIFICATIONS_SEARCH_URL] }),
  ]);

/** Spec §9: '9+' above 9. */
export const badgeText = (count: number, max: number): string => (count > max ? `${max}+` : String(count));
