import type { Feature } from '../../lib/feature.ts';

/** /new lists what the other features declare as `create`. */
export const newPage: Feature = {
  key: 'new',
  routes: [{ path: 'new', page: () => import('./NewPage.tsx') }],
};
