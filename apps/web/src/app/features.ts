import { about } from '../features/about/feature.tsx';
import { billing } from '../features/billing/feature.tsx';
import { bookSummary } from '../features/bookSummary/feature.tsx';
import { cases } from '../features/cases/feature.tsx';
import { companies } from '../features/companies/feature.tsx';
import { company } from '../features/company/feature.tsx';
import { dashboard } from '../features/dashboard/feature.tsx';
import { documents } from '../features/documents/feature.tsx';
import { finance } from '../features/finance/feature.tsx';
import { jobs } from '../features/jobs/feature.tsx';
import { mydata } from '../features/mydata/feature.tsx';
import { newPage } from '../features/new/feature.tsx';
import { notifications } from '../features/notifications/feature.tsx';
import { onlineForms } from '../features/onlineForms/feature.tsx';
import { parametrics } from '../features/parametrics/feature.tsx';
import { payments } from '../features/payments/feature.tsx';
import { readouts } from '../features/readouts/feature.tsx';
import { settings } from '../features/settings/feature.tsx';
import { settlements } from '../features/settlements/feature.tsx';
import { traders } from '../features/traders/feature.tsx';
import { userGroups } from '../features/userGroups/feature.tsx';
import { users } from '../features/users/feature.tsx';
import { water } from '../features/water/feature.tsx';
import type { Feature } from '../lib/feature.ts';

/**
 * Every feature of the signed-in app, one line each. The order is the side menu's (spec §2:
 * dashboard, new document, inbox, outbox, protocol book, case files, applications, traders,
 * operators, settings), and also that of the dashboard tiles and /new entries; entries listed
 * under another (parametrics, company under Settings) follow the same order.
 */
export const features: readonly Feature[] = [
  dashboard,
  documents,
  bookSummary,
  cases,
  onlineForms,
  traders,
  water,
  billing,
  payments,
  readouts,
  settlements,
  users,
  finance,
  mydata,
  userGroups,
  parametrics,
  settings,
  companies,
  company,
  about,
  newPage,
  jobs,
  notifications,
];
