import FolderCopyOutlinedIcon from '@mui/icons-material/FolderCopyOutlined';
import { lazy } from 'react';
import { type Feature, searchGroup } from '../../lib/feature.ts';

const CaseEditPage = () => import('./CaseEditPage.tsx');

/** Case files (spec §2: after the protocol book). */
export const cases: Feature = {
  key: 'cases',
  dashboardCards: [
    {
      key: 'recentCases',
      reads: 'recentCases',
      order: 45,
      component: lazy(() => import('./dashboard/RecentCasesCard.tsx')),
    },
  ],
  routes: [
    { path: 'cases', page: () => import('./CasesListPage.tsx'), requires: 'protocol:read' },
    { path: 'cases/Create', page: CaseEditPage, requires: 'protocol:write' },
    { path: 'cases/:caseId/edit', page: CaseEditPage, requires: 'protocol:read' },
  ],
  menu: [
    {
      key: 'cases',
      label: 'menu.cases',
      path: '/cases',
      icon: FolderCopyOutlinedIcon,
      requires: 'protocol:read',
    },
  ],
  search: [
    searchGroup({
      key: 'caseDTOList',
      label: 'menu.cases',
      icon: FolderCopyOutlinedIcon,
      present: (found) => ({ primary: found.code, secondary: found.name, path: `/cases/${found.id}/edit` }),
    }),
  ],
};
