import type { Dashboard } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

export const dashboardKey = () => ['dashboard'] as const;

export const fetchDashboard = (signal?: AbortSignal) => api.get<Dashboard>('/api/dashboard', { signal });
