import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined';
import PointOfSaleOutlinedIcon from '@mui/icons-material/PointOfSaleOutlined';
import { lazy } from 'react';
import type { Feature } from '../../lib/feature.ts';

/** The consumer's account, debts and payments: the cashier and the card's Account tab. */
export const payments: Feature = {
  key: 'payments',
  routes: [
    { path: 'payments/cashier', page: () => import('./CashierPage.tsx'), requires: 'payments:write' },
    { path: 'payments/bank', page: () => import('./bank/BankPage.tsx'), requires: 'payments:read' },
    {
      path: 'payments/bank/files/:id',
      page: () => import('./bank/BankFilePage.tsx'),
      requires: 'payments:read',
    },
  ],
  menu: [
    {
      key: 'payments-cashier',
      label: 'menu.cashier',
      path: '/payments/cashier',
      icon: PointOfSaleOutlinedIcon,
      parent: 'water',
      requires: 'payments:write',
    },
    {
      key: 'payments-bank',
      label: 'menu.bankFiles',
      path: '/payments/bank',
      icon: AccountBalanceOutlinedIcon,
      parent: 'water',
      requires: 'payments:read',
      alsoActiveOn: ['/payments/bank'],
    },
  ],
  consumerTabs: [
    {
      key: 'account',
      label: 'menu.account',
      requires: 'payments:read',
      component: lazy(() => import('./ConsumerAccountTab.tsx')),
    },
  ],
};
