import AddBusinessOutlinedIcon from '@mui/icons-material/AddBusinessOutlined';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import { type Feature, searchGroup } from '../../lib/feature.ts';

const TraderEditPage = () => import('./TraderEditPage.tsx');

/** Traders (spec §2: after applications, before operators). */
export const traders: Feature = {
  key: 'traders',
  routes: [
    { path: 'traders', page: () => import('./TradersListPage.tsx'), requires: 'traders:read' },
    { path: 'traders/create', page: TraderEditPage, requires: 'traders:write' },
    { path: 'traders/:traderId/edit', page: TraderEditPage, requires: 'traders:read' },
  ],
  menu: [
    {
      key: 'traders',
      label: 'menu.traders',
      path: '/traders',
      icon: StorefrontOutlinedIcon,
      requires: 'traders:read',
    },
  ],
  tiles: [
    {
      key: 'traders',
      label: 'dashboard.tiles.traders',
      description: 'dashboard.tiles.tradersDescription',
      path: () => '/traders',
      icon: StorefrontOutlinedIcon,
      testId: 'dashboard-tile-traders',
      requires: 'traders:read',
    },
  ],
  create: [
    {
      key: 'trader',
      label: 'new.newTrader',
      description: 'new.newTraderDescription',
      path: '/traders/create',
      icon: AddBusinessOutlinedIcon,
      requires: 'traders:write',
    },
  ],
  search: [
    searchGroup({
      key: 'traderDTOList',
      label: 'menu.traders',
      icon: StorefrontOutlinedIcon,
      present: (trader) => ({
        primary: trader.fullname ?? '',
        secondary: trader.vatnumber ?? undefined,
        path: `/traders/${trader.id}/edit`,
      }),
    }),
  ],
};
