import DiscountOutlinedIcon from '@mui/icons-material/DiscountOutlined';
import PlaylistPlayOutlinedIcon from '@mui/icons-material/PlaylistPlayOutlined';
import PriceChangeOutlinedIcon from '@mui/icons-material/PriceChangeOutlined';
import RequestQuoteOutlinedIcon from '@mui/icons-material/RequestQuoteOutlined';
import { lazy } from 'react';
import type { Feature } from '../../lib/feature.ts';

const PricingPolicyPage = () => import('./PricingPolicyEditPage.tsx');
const DiscountPolicyPage = () => import('./DiscountPolicyEditPage.tsx');

/** Water billing: pricing and discount policies with their "try it" panel, and the bills. */
export const billing: Feature = {
  key: 'billing',
  dashboardCards: [
    {
      key: 'waterSummary',
      reads: 'waterSummary',
      order: 41,
      component: lazy(() => import('./dashboard/WaterCard.tsx')),
    },
  ],
  routes: [
    {
      path: 'billing/pricing_policies',
      page: () => import('./PricingPoliciesPage.tsx'),
      requires: 'billing:read',
    },
    { path: 'billing/pricing_policies/create', page: PricingPolicyPage, requires: 'billing:write' },
    { path: 'billing/pricing_policies/:policyId/edit', page: PricingPolicyPage, requires: 'billing:read' },
    {
      path: 'billing/discount_policies',
      page: () => import('./DiscountPoliciesPage.tsx'),
      requires: 'billing:read',
    },
    { path: 'billing/discount_policies/create', page: DiscountPolicyPage, requires: 'billing:write' },
    { path: 'billing/discount_policies/:policyId/edit', page: DiscountPolicyPage, requires: 'billing:read' },
    { path: 'invoices', page: () => import('./InvoicesPage.tsx'), requires: 'billing:read' },
    { path: 'invoices/runs', page: () => import('./RunsPage.tsx'), requires: 'billing:read' },
  ],
  menu: [
    {
      key: 'billing-invoices',
      label: 'menu.invoices',
      path: '/invoices',
      icon: RequestQuoteOutlinedIcon,
      parent: 'water',
      requires: 'billing:read',
    },
    {
      key: 'billing-runs',
      label: 'menu.billingRuns',
      path: '/invoices/runs',
      icon: PlaylistPlayOutlinedIcon,
      parent: 'water',
      requires: 'billing:read',
    },
    {
      key: 'billing-pricing',
      label: 'menu.pricingPolicies',
      path: '/billing/pricing_policies',
      icon: PriceChangeOutlinedIcon,
      alsoActiveOn: ['/billing/pricing_policies'],
      parent: 'water',
      requires: 'billing:read',
    },
    {
      key: 'billing-discounts',
      label: 'menu.discountPolicies',
      path: '/billing/discount_policies',
      icon: DiscountOutlinedIcon,
      alsoActiveOn: ['/billing/discount_policies'],
      parent: 'water',
      requires: 'billing:read',
    },
  ],
  // The consumer card's Bills tab.
  consumerTabs: [
    {
      key: 'bills',
      label: 'menu.invoices',
      requires: 'billing:read',
      component: lazy(() => import('./ConsumerBillsTab.tsx')),
    },
  ],
};
