import type { Language } from '@protocol/contracts';
import { Suspense } from 'react';
import { BrowserRouter, type RouteObject, useRoutes } from 'react-router';
import { AppErrorBoundary } from './errors/ErrorBoundary.tsx';
import { NotFoundPage } from './errors/NotFoundPage.tsx';
import { GuestOnly, RequireAuth } from './guards.tsx';
import { LangRoot } from './LangRoot.tsx';
import { Page } from './Page.tsx';
import { lazyPage } from './routeLoading.ts';
import { SessionProvider, useSession } from './session.tsx';

// Every page is its own chunk; the sign-in page loads none of the shell (see scripts/size-report.mjs).
const AppLayout = lazyPage(() => import('./shell/AppLayout.tsx'));
const LoginPage = lazyPage(() => import('../features/auth/LoginPage.tsx'));
const LogoutPage = lazyPage(() => import('../features/auth/LogoutPage.tsx'));
const DashboardPage = lazyPage(() => import('../features/dashboard/DashboardPage.tsx'));
const NewPage = lazyPage(() => import('../features/new/NewPage.tsx'));
const AboutPage = lazyPage(() => import('../features/about/AboutPage.tsx'));
const UserEditPage = lazyPage(() => import('../features/users/UserEditPage.tsx'));
const ParametricPage = lazyPage(() => import('../features/parametrics/ParametricPage.tsx'));
const SettingsHubPage = lazyPage(() => import('../features/settings/SettingsHubPage.tsx'));
const SettingsTablePage = lazyPage(() => import('../features/settings/SettingsTablePage.tsx'));
const ForbiddenPage = lazyPage(() => import('./errors/ForbiddenPage.tsx'));
const TradersListPage = lazyPage(() => import('../features/traders/TradersListPage.tsx'));
const TraderEditPage = lazyPage(() => import('../features/traders/TraderEditPage.tsx'));
const UsersListPage = lazyPage(() => import('../features/users/UsersListPage.tsx'));
const UserGroupsListPage = lazyPage(() => import('../features/userGroups/UserGroupsListPage.tsx'));
const UserGroupEditPage = lazyPage(() => import('../features/userGroups/UserGroupEditPage.tsx'));
const CompanySettingsPage = lazyPage(() => import('../features/company/CompanySettingsPage.tsx'));
const PrintPage = lazyPage(() => import('../components/DataTable/PrintPage.tsx'));
const DocumentsListPage = lazyPage(() => import('../features/documents/DocumentsListPage.tsx'));
const DocumentEditPage = lazyPage(() => import('../features/documents/DocumentEditPage.tsx'));
const CasesListPage = lazyPage(() => import('../features/cases/CasesListPage.tsx'));
const CaseEditPage = lazyPage(() => import('../features/cases/CaseEditPage.tsx'));
const BookSummaryPage = lazyPage(() => import('../features/bookSummary/BookSummaryPage.tsx'));

/** Unknown routes: the 404 page, inside the shell when signed in, on its own otherwise. */
function UnknownRoute() {
  const { token } = useSession();
  if (!token) return <NotFoundPage missing standalone />;
  return (
    <RequireAuth>
      <Suspense fallback={null}>
        <AppLayout>
          <NotFoundPage missing />
        </AppLayout>
      </Suspense>
    </RequireAuth>
  );
}

function Shell() {
  return (
    <RequireAuth>
      <AppErrorBoundary standalone>
        <Page component={AppLayout} />
      </AppErrorBoundary>
    </RequireAuth>
  );
}

function languageRoutes(): RouteObject[] {
  return [
    {
      element: <GuestOnly />,
      children: [{ path: 'login', element: <Page component={LoginPage} /> }],
    },
    { path: 'logout', element: <Page component={LogoutPage} /> },
    // The print-friendly list: signed in, outside the shell.
    {
      path: 'print',
      element: (
        <RequireAuth>
          <Page component={PrintPage} />
        </RequireAuth>
      ),
    },
    {
      element: <Shell />,
      children: [
        { index: true, element: <Page component={DashboardPage} /> },
        { path: 'dashboard', element: <Page component={DashboardPage} /> },
        { path: 'new', element: <Page component={NewPage} /> },
        { path: 'about', element: <Page component={AboutPage} /> },
        // The five documents lists: one page that reads its list from the path.
        ...['inbox', 'outbox', 'document', 'document/archived', 'document/deleted'].map((path) => ({
          path,
          element: <Page component={DocumentsListPage} requires="protocol:read" />,
        })),
        { path: 'document/create', element: <Page component={DocumentEditPage} requires="protocol:write" /> },
        {
          path: 'document/:documentId/edit',
          element: <Page component={DocumentEditPage} requires="protocol:read" />,
        },
        { path: 'book_summary', element: <Page component={BookSummaryPage} requires="protocol:read" /> },
        { path: 'cases', element: <Page component={CasesListPage} requires="protocol:read" /> },
        { path: 'cases/Create', element: <Page component={CaseEditPage} requires="protocol:write" /> },
        { path: 'cases/:caseId/edit', element: <Page component={CaseEditPage} requires="protocol:read" /> },
        { path: 'traders', element: <Page component={TradersListPage} requires="traders:read" /> },
        { path: 'traders/create', element: <Page component={TraderEditPage} requires="traders:write" /> },
        {
          path: 'traders/:traderId/edit',
          element: <Page component={TraderEditPage} requires="traders:read" />,
        },
        { path: 'users', element: <Page component={UsersListPage} requires="users:read" /> },
        { path: 'users/create', element: <Page component={UserEditPage} requires="users:write" /> },
        { path: 'users/groups', element: <Page component={UserGroupsListPage} requires="users:admin" /> },
        {
          path: 'users/groups/create',
          element: <Page component={UserGroupEditPage} requires="users:admin" />,
        },
        {
          path: 'users/groups/:id/edit',
          element: <Page component={UserGroupEditPage} requires="users:admin" />,
        },
        { path: 'users/:id/edit', element: <Page component={UserEditPage} /> },
        {
          path: 'parametrics/:parametricCode',
          element: <Page component={ParametricPage} requires="settings:read" />,
        },
        { path: 'settings', element: <Page component={SettingsHubPage} requires="settings:read" /> },
        {
          path: 'settings/company',
          element: <Page component={CompanySettingsPage} requires="settings:admin" />,
        },
        { path: 'settings/:table', element: <Page component={SettingsTablePage} requires="settings:read" /> },
        { path: 'forbidden', element: <Page component={ForbiddenPage} /> },
      ],
    },
    { path: '*', element: <UnknownRoute /> },
  ];
}

function languageTree(lang: Language, path: string): RouteObject {
  return { path, element: <LangRoot lang={lang} />, children: languageRoutes() };
}

const routes: RouteObject[] = [languageTree('en', '/en'), languageTree('el', '/')];

function AppRoutes() {
  return useRoutes(routes);
}

/**
 * Every route twice: Greek without a prefix, English under /en (spec §2). A declarative router is
 * enough here (no loaders) and keeps the sign-in page's JavaScript well under budget.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppErrorBoundary standalone>
        <SessionProvider>
          <AppRoutes />
        </SessionProvider>
      </AppErrorBoundary>
    </BrowserRouter>
  );
}
