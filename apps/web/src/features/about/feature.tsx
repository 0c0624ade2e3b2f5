import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import type { Feature } from '../../lib/feature.ts';

export const about: Feature = {
  key: 'about',
  routes: [{ path: 'about', page: () => import('./AboutPage.tsx') }],
  tiles: [
    {
      key: 'about',
      label: 'dashboard.tiles.about',
      description: 'dashboard.tiles.aboutDescription',
      path: () => '/about',
      icon: InfoOutlinedIcon,
      testId: 'dashboard-tile-about',
    },
  ],
};
