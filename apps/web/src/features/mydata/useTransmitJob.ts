import type { Job } from '@protocol/contracts';
import { useState } from 'react';
import { jobEnded, useJob } from '../../lib/jobs.ts';

/** Follows a transmission job until it ends (polling its progress); `onEnd` runs once when it does. */
export function useTransmitJob(onEnd: (job: Job) => void) {
  const [jobId, setJobId] = useState<number | null>(null);
  const query = useJob(jobId, onEnd);
  return {
    job: jobId === null ? undefined : query.data,
    follow: setJobId,
    active: jobId !== null && !jobEnded(query.data?.state),
  };
}
