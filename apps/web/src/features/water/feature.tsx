import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import PersonAddAltOutlinedIcon from '@mui/icons-material/PersonAddAltOutlined';
import PinOutlinedIcon from '@mui/icons-material/PinOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import { writtenCode } from '@protocol/contracts';
import { type Feature, searchGroup } from '../../lib/feature.ts';

const WaterParametricPage = () => import('./WaterParametricPage.tsx');
const ConsumerPage = () => import('./ConsumerPage.tsx');
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

/** The water service: consumers, its parametric tables, invoice policies and the encoding code. */
export const water: Feature = {
  key: 'water',
  routes: [
    { path: 'consumers', page: () => import('./ConsumersListPage.tsx'), requires: 'consumers:read' },
    { path: 'consumers/create', page: ConsumerPage, requires: 'consumers:write' },
    { path: 'consumers/import', page: () => import('./ImportPage.tsx'), requires: 'consumers:write' },
    { path: 'consumers/:id/edit', page: ConsumerPage, requires: 'consumers:read' },
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
      path: '/consumers',
      icon: WaterDropOutlinedIcon,
      alsoActiveOn: ['/water', '/consumers', ...parametricCodes.map((code) => `/parametrics/${code}`)],
      requires: 'consumers:read',
    },
    {
      key: 'consumers',
      label: 'menu.consumers',
      path: '/consumers',
      icon: PeopleAltOutlinedIcon,
      alsoActiveOn: ['/consumers'],
      parent: 'water',
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
  create: [
    {
      key: 'consumer',
      label: 'new.newConsumer',
      description: 'new.newConsumerDescription',
      path: '/consumers/create',
      icon: PersonAddAltOutlinedIcon,
      requires: 'consumers:write',
    },
  ],
  search: [
    searchGroup({
      key: 'consumerDTOList',
      label: 'menu.consumers',
      icon: WaterDropOutlinedIcon,
      present: (consumer) => ({
        primary: `${writtenCode(consumer.code)} · ${consumer.ownerName ?? ''}`,
        secondary: consumer.supplyAddress,
        path: `/consumers/${consumer.id}/edit`,
      }),
    }),
  ],
};
