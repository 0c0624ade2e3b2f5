import type { Dashboard } from '@protocol/contracts';
import { withCompany } from '../../app/company.tsx';
import { api } from '../../lib/api.ts';

export const dashboardKey = (companyId: number | null) => ['dashboard', companyId] as const;

export const fetchDashboard = (companyId: number | null, signal?: AbortSignal) =>
  api.get<Dashboard>(withCompany('/api/dashboard', companyId), { signal });
