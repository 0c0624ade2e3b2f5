import MoveToInboxOutlinedIcon from '@mui/icons-material/MoveToInboxOutlined';
import NoteAddOutlinedIcon from '@mui/icons-material/NoteAddOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import { type Feature, searchGroup } from '../../lib/feature.ts';
// The tiles and /new entries bring their texts with the shell (not the sign-in page).
import './i18n/shell.ts';
import { lazy } from 'react';

const DocumentsListPage = () => import('./DocumentsListPage.tsx');
const DocumentEditPage = () => import('./DocumentEditPage.tsx');

/** The documents of the protocol book: a new one, then the incoming and outgoing lists (spec §2). */
export const documents: Feature = {
  key: 'documents',
  // Order 10–49: the protocol's cards first, as an operator of the book reads them.
  dashboardCards: [
    {
      key: 'chargedToMe',
      reads: 'chargedToMe',
      order: 10,
      component: lazy(() => import('./dashboard/ChargedToMeCard.tsx')),
    },
    {
      key: 'registrations',
      reads: 'registrations',
      order: 20,
      component: lazy(() => import('./dashboard/RegistrationsCards.tsx')),
    },
    {
      key: 'registrationsChart',
      reads: 'registrations',
      order: 40,
      component: lazy(() => import('./dashboard/RegistrationsChartCard.tsx')),
    },
  ],
  routes: [
    // The five lists: one page that reads its list from the path.
    ...['inbox', 'outbox', 'document', 'document/archived', 'document/deleted'].map((path) => ({
      path,
      page: DocumentsListPage,
      requires: 'protocol:read' as const,
    })),
    { path: 'document/create', page: DocumentEditPage, requires: 'protocol:write' },
    { path: 'document/:documentId/edit', page: DocumentEditPage, requires: 'protocol:read' },
  ],
  menu: [
    {
      key: 'new-document',
      label: 'menu.newDocument',
      path: '/document/create',
      icon: NoteAddOutlinedIcon,
      requires: 'protocol:write',
    },
    {
      key: 'inbox',
      label: 'menu.inbox',
      path: '/inbox',
      icon: MoveToInboxOutlinedIcon,
      requires: 'protocol:read',
    },
    {
      key: 'outbox',
      label: 'menu.outbox',
      path: '/outbox',
      icon: OutboxOutlinedIcon,
      requires: 'protocol:read',
    },
  ],
  tiles: [
    {
      key: 'inbox',
      label: 'dashboard.tiles.inbox',
      description: 'dashboard.tiles.inboxDescription',
      path: () => '/inbox',
      icon: MoveToInboxOutlinedIcon,
      testId: 'dashboard-tile-inbox',
      requires: 'protocol:read',
    },
    {
      key: 'outbox',
      label: 'dashboard.tiles.outbox',
      description: 'dashboard.tiles.outboxDescription',
      path: () => '/outbox',
      icon: OutboxOutlinedIcon,
      testId: 'dashboard-tile-outbox',
      requires: 'protocol:read',
    },
  ],
  create: [
    {
      key: 'incomingDocument',
      label: 'new.newIncoming',
      description: 'new.newIncomingDescription',
      path: '/document/create?kind=0',
      icon: MoveToInboxOutlinedIcon,
      requires: 'protocol:write',
    },
    {
      key: 'outgoingDocument',
      label: 'new.newOutgoing',
      description: 'new.newOutgoingDescription',
      path: '/document/create?kind=1',
      icon: OutboxOutlinedIcon,
      requires: 'protocol:write',
    },
  ],
  search: (['inboxDTOList', 'outboxDTOList'] as const).map((key) =>
    searchGroup({
      key,
      label: key === 'inboxDTOList' ? 'menu.inbox' : 'menu.outbox',
      icon: key === 'inboxDTOList' ? MoveToInboxOutlinedIcon : OutboxOutlinedIcon,
      present: (document) => ({
        primary: document.protocolId ? `${document.protocolId} · ${document.subject}` : document.subject,
        secondary: document.name ?? undefined,
        path: `/document/${document.id}/edit`,
      }),
    }),
  ),
};
