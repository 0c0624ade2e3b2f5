import { errorKeys, type Job } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import i18n from 'i18next';
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

/**
 * Why a job failed, in the reader's language: the catalog key the server kept, with its params. A
 * key without a text on this page (a feature's catalog not loaded yet, or a text kept before jobs
 * kept keys, e.g. 'Stopped') reads as the general failure. Every place showing a job's error uses it;
 * without `errorParams` (a billing run's copy of its job's error) the error is read as the server
 * keeps it, `key?{params}`.
 */
export function jobErrorText(
  t: TFunction,
  job: { error: string | null; errorParams?: Job['errorParams'] },
): string {
  let { error, errorParams } = job;
  if (error && !errorParams) {
    const at = error.indexOf('?');
    if (at > 0) {
      try {
        errorParams = JSON.parse(error.slice(at + 1)) as Job['errorParams'];
        error = error.slice(0, at);
      } catch {
        // Not a kept key with params: an old text, worded as the general failure below.
      }
    }
  }
  return error && i18n.exists(error) ? t(error, errorParams) : t(errorKeys.jobFailed);
}
