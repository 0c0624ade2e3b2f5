import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import SettingsInputAntennaOutlinedIcon from '@mui/icons-material/SettingsInputAntennaOutlined';
import { lazy } from 'react';
import { type Feature, searchGroup } from '../../lib/feature.ts';

/** myDATA: transmission of issued documents to AADE, its parameters, and the search by MARK. */
export const mydata: Feature = {
  key: 'mydata',
  routes: [
    { path: 'mydata', page: () => import('./MydataListPage.tsx'), requires: 'mydata:read' },
    {
      path: 'mydata/documents/:documentId',
      page: () => import('./TransmissionPage.tsx'),
      requires: 'mydata:read',
    },
    { path: 'mydata/bills/:billId', page: () => import('./TransmissionPage.tsx'), requires: 'mydata:read' },
    { path: 'settings/mydata', page: () => import('./MydataSettingsPage.tsx'), requires: 'mydata:read' },
  ],
  menu: [
    {
      key: 'mydata',
      label: 'menu.mydata',
      path: '/mydata',
      icon: CloudUploadOutlinedIcon,
      alsoActiveOn: ['/mydata/documents', '/mydata/bills'],
      parent: 'finance',
      requires: 'mydata:read',
    },
    {
      key: 'mydataSettings',
      label: 'menu.mydataSettings',
      path: '/settings/mydata',
      icon: SettingsInputAntennaOutlinedIcon,
      parent: 'settings',
      requires: 'mydata:read',
    },
  ],
  dashboardCards: [
    {
      key: 'mydataPending',
      reads: 'mydataPending',
      order: 40,
      component: lazy(() => import('./dashboard/PendingCard.tsx')),
    },
  ],
  search: [
    searchGroup({
      key: 'mydataDTOList',
      label: 'menu.mydata',
      icon: CloudUploadOutlinedIcon,
      present: (doc) => ({
        primary: `${doc.seriesCode}-${doc.number}/${doc.year} · ${doc.mark}`,
        secondary: doc.traderName ?? undefined,
        path: `/mydata/documents/${doc.id}`,
      }),
    }),
  ],
};
