import PinOutlinedIcon from '@mui/icons-material/PinOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import type { Feature } from '../../app/feature.ts';

const WaterParametricPage = () => import('./WaterParametricPage.tsx');
// Kept in step with parametricTables.tsx (which this small declaration must not load).
const parametricCodes = [
  'sectors',
  'routes',
  'areas',
  'buildings',
  'meterTypes',
  'propertyUsages',
  'connectionTypes',
  'sewerageIndicators',
  'specialRegulations',
  'pipeDiameters',
];

/** The water service (issue 15): its parametric tables, invoice policies and the encoding code. */
export const water: Feature = {
  key: 'water',
  routes: [
    ...parametricCodes.map((code) => ({
      path: `parametrics/${code}`,
      page: WaterParametricPage,
      requires: 'consumers:read' as const,
    })),
    {
      path: 'water/invoice_policies',
      page: () => import('./InvoicePoliciesPage.tsx'),
      requires: 'consumers:read',
    },
    { path: 'water/encoding_code', page: () => import('./EncodingCodePage.tsx'), requires: 'consumers:read' },
  ],
  menu: [
    {
      key: 'water',
      label: 'menu.water',
      path: '/parametrics/sectors',
      icon: WaterDropOutlinedIcon,
      alsoActiveOn: ['/water', ...parametricCodes.map((code) => `/parametrics/${code}`)],
      requires: 'consumers:read',
    },
    {
      key: 'water-parametrics',
      label: 'menu.waterParametrics',
      path: '/parametrics/sectors',
      icon: TuneOutlinedIcon,
      alsoActiveOn: parametricCodes.map((code) => `/parametrics/${code}`),
      parent: 'water',
      requires: 'consumers:read',
    },
    {
      key: 'water-invoice-policies',
      label: 'menu.invoicePolicies',
      path: '/water/invoice_policies',
      icon: ReceiptLongOutlinedIcon,
      parent: 'water',
      requires: 'consumers:read',
    },
    {
      key: 'water-encoding-code',
      label: 'menu.encodingCode',
      path: '/water/encoding_code',
      icon: PinOutlinedIcon,
      parent: 'water',
      requires: 'consumers:read',
    },
  ],
};
