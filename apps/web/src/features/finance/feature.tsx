import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import FormatListNumberedOutlinedIcon from '@mui/icons-material/FormatListNumberedOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import MiscellaneousServicesOutlinedIcon from '@mui/icons-material/MiscellaneousServicesOutlined';
import NoteAddOutlinedIcon from '@mui/icons-material/NoteAddOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import TransformOutlinedIcon from '@mui/icons-material/TransformOutlined';
import VerifiedOutlinedIcon from '@mui/icons-material/VerifiedOutlined';
import WarehouseOutlinedIcon from '@mui/icons-material/WarehouseOutlined';
import { lazy } from 'react';
import type { Feature } from '../../lib/feature.ts';

const DocumentEditPage = () => import('./DocumentEditPage.tsx');

/** Finance (spec §2 financial menu: documents, accounting plan, services, warehouse items; series). */
export const finance: Feature = {
  key: 'finance',
  dashboardCards: [
    {
      key: 'financeSummary',
      reads: 'financeSummary',
      order: 42,
      component: lazy(() => import('./dashboard/FinanceCard.tsx')),
    },
  ],
  routes: [
    { path: 'finance/documents', page: () => import('./DocumentsListPage.tsx'), requires: 'finance:read' },
    { path: 'finance/documents/create', page: DocumentEditPage, requires: 'finance:write' },
    { path: 'finance/documents/:documentId/edit', page: DocumentEditPage, requires: 'finance:read' },
    {
      path: 'finance/transformation',
      page: () => import('./TransformationPage.tsx'),
      requires: 'finance:read',
    },
    {
      path: 'finance/certifications',
      page: () => import('./CertificationsPage.tsx'),
      requires: 'finance:read',
    },
    {
      path: 'finance/certifications/:certificationId',
      page: () => import('./CertificationPage.tsx'),
      requires: 'finance:read',
    },
    { path: 'finance/accounts', page: () => import('./AccountsPage.tsx'), requires: 'finance:read' },
    { path: 'finance/services', page: () => import('./ServicesPage.tsx'), requires: 'finance:read' },
    { path: 'finance/items', page: () => import('./ItemsPage.tsx'), requires: 'finance:read' },
    { path: 'finance/warehouses', page: () => import('./WarehousesPage.tsx'), requires: 'finance:read' },
    { path: 'finance/series', page: () => import('./SeriesPage.tsx'), requires: 'finance:read' },
  ],
  menu: [
    {
      key: 'finance',
      label: 'menu.finance',
      path: '/finance/documents',
      icon: AccountBalanceOutlinedIcon,
      requires: 'finance:read',
    },
    {
      key: 'financeDocuments',
      label: 'menu.financeDocuments',
      path: '/finance/documents',
      icon: ReceiptLongOutlinedIcon,
      alsoActiveOn: ['/finance/documents/create'],
      parent: 'finance',
      requires: 'finance:read',
    },
    {
      key: 'financeTransformation',
      label: 'menu.financeTransformation',
      path: '/finance/transformation',
      icon: TransformOutlinedIcon,
      parent: 'finance',
      requires: 'finance:read',
    },
    {
      key: 'financeAccounts',
      label: 'menu.financeAccounts',
      path: '/finance/accounts',
      icon: AccountTreeOutlinedIcon,
      parent: 'finance',
      requires: 'finance:read',
    },
    {
      key: 'financeCertifications',
      label: 'menu.financeCertifications',
      path: '/finance/certifications',
      icon: VerifiedOutlinedIcon,
      parent: 'finance',
      requires: 'finance:read',
    },
    {
      key: 'financeServices',
      label: 'menu.financeServices',
      path: '/finance/services',
      icon: MiscellaneousServicesOutlinedIcon,
      parent: 'finance',
      requires: 'finance:read',
    },
    {
      key: 'financeItems',
      label: 'menu.financeItems',
      path: '/finance/items',
      icon: Inventory2OutlinedIcon,
      parent: 'finance',
      requires: 'finance:read',
    },
    {
      key: 'financeWarehouses',
      label: 'menu.financeWarehouses',
      path: '/finance/warehouses',
      icon: WarehouseOutlinedIcon,
      parent: 'finance',
      requires: 'finance:read',
    },
    {
      key: 'financeSeries',
      label: 'menu.financeSeries',
      path: '/finance/series',
      icon: FormatListNumberedOutlinedIcon,
      parent: 'finance',
      requires: 'finance:read',
    },
  ],
  create: [
    {
      key: 'financeDocument',
      label: 'new.newFinanceDocument',
      description: 'new.newFinanceDocumentDescription',
      path: '/finance/documents/create',
      icon: NoteAddOutlinedIcon,
      requires: 'finance:write',
    },
  ],
};
