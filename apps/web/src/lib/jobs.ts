import type { Job } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { api } from './api.ts';

/** How often a job is asked for while it is queued or running. */
const JOB_POLL_MS = 400;

/** A job in one of these states changes no more. */
export const jobEnded = (state: Job['state'] | undefined): boolean =>
  state === 'succeeded' || state === 'failed' || state === 'cancelled';

/**
 * A background job (the platform's jobs API) followed until it ends: asked for every 400 ms while it
 * waits or runs, not at all while `jobId` is null. `onEnd` runs once per job, when it is first seen
 * ended (to refresh what it changed, to tell its error).
 */
export function useJob(jobId: number | null, onEnd?: (job: Job) => void) {
  const told = useRef<number | null>(null);
  return useQuery({
    queryKey: ['jobs', jobId],
    queryFn: async ({ signal }) => {
      const job = await api.get<Job>(`/api/jobs/${jobId}`, { signal });
      if (onEnd && jobEnded(job.state) && told.current !== job.id) {
        told.current = job.id;
        onEnd(job);
      }
      return job;
    },
    enabled: jobId !== null,
    refetchInterval: (query) => (jobEnded(query.state.data?.state) ? false : JOB_POLL_MS),
  });
}
