import type { Job } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { jobKey, mydataApi } from './api.ts';

const running = (job: Job | undefined) => !job || job.state === 'queued' || job.state === 'running';

/** Follows a transmission job until it ends (polling its progress); `onEnd` runs once when it does. */
export function useTransmitJob(onEnd: (job: Job) => void) {
  const [jobId, setJobId] = useState<number | null>(null);
  const [ended, setEnded] = useState<number | null>(null);
  const query = useQuery({
    queryKey: jobKey(jobId ?? 0),
    queryFn: async ({ signal }) => {
      const job = await mydataApi.job(jobId ?? 0, signal);
      if (!running(job) && ended !== job.id) {
        setEnded(job.id);
        onEnd(job);
      }
      return job;
    },
    enabled: jobId !== null,
    refetchInterval: (q) => (running(q.state.data) ? 400 : false),
  });
  return {
    job: jobId === null ? undefined : query.data,
    follow: setJobId,
    active: jobId !== null && running(query.data),
  };
}
