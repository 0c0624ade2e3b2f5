import type { Job, Page } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

export const JOBS_SEARCH_URL = '/api/jobs';
export const JOBS_META_URL = '/api/users/meta';
export const JOBS_LIST_META_KEY = 'jobs.list';
export const recentJobsKey = ['jobs', 'recent'] as const;

/** The operator's background jobs (platform jobs API). */
export const jobsApi = {
  recent: (signal?: AbortSignal) =>
    api.get<Page<Job>>(`${JOBS_SEARCH_URL}?size=10&sort=createdAt,DESC`, { signal }),
  cancel: (id: number) => api.post<Job>(`/api/jobs/${id}/cancel`, {}),
};

export const isActive = (job: Job) => job.state === 'queued' || job.state === 'running';
