import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import type { Feature } from '../../lib/feature.ts';

/** The legal protocol book (spec §2: after inbox and outbox). */
export const bookSummary: Feature = {
  key: 'bookSummary',
  routes: [{ path: 'book_summary', page: () => import('./BookSummaryPage.tsx'), requires: 'protocol:read' }],
  menu: [
    {
      key: 'book-summary',
      label: 'menu.bookSummary',
      path: '/book_summary',
      icon: MenuBookOutlinedIcon,
      requires: 'protocol:read',
    },
  ],
};
