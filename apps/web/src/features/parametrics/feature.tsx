import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import type { Feature } from '../../lib/feature.ts';

/** Parametrics (protocol books…): the first entry under Settings. */
export const parametrics: Feature = {
  key: 'parametrics',
  routes: [
    {
      path: 'parametrics/:parametricCode',
      page: () => import('./ParametricPage.tsx'),
      requires: 'settings:read',
    },
  ],
  menu: [
    {
      key: 'parametrics',
      label: 'menu.parametrics',
      path: '/parametrics/protocolBook',
      icon: TuneOutlinedIcon,
      alsoActiveOn: ['/parametrics'],
      parent: 'settings',
      requires: 'settings:read',
    },
  ],
};
