import type { Language } from '@protocol/contracts';
import { BrowserRouter, type RouteObject, useRoutes } from 'react-router';
import { GuestOnly, RequireAuth } from '../lib/guards.tsx';
import { lazyPage } from '../lib/routeLoading.ts';
import { SessionProvider } from '../lib/session.tsx';
import { AppErrorBoundary } from './errors/ErrorBoundary.tsx';
import { LangRoot } from './LangRoot.tsx';
import { Page } from './Page.tsx';

// Every page is its own chunk; the sign-in page loads none of the shell (see scripts/size-report.mjs).
const LoginPage = lazyPage(() => import('../features/auth/LoginPage.tsx'));
const LogoutPage = lazyPage(() => import('../features/auth/LogoutPage.tsx'));
const PrintPage = lazyPage(() => import('../components/DataTable/PrintPage.tsx'));
// A citizen's public online form: no sign-in, outside the shell, its own chunk.
const PublicFormPage = lazyPage(() => import('../features/onlineForms/public/route.tsx'));
// A citizen's balance lookup: no sign-in, outside the shell, its own chunk.
const BalancePage = lazyPage(() => import('../features/payments/public/BalancePage.tsx'));
// The features' pages and the shell: app/shellRoutes.tsx, with the declarations in app/features.ts.
const ShellRoutes = lazyPage(() => import('./shellRoutes.tsx'));

function languageRoutes(): RouteObject[] {
  return [
    {
      element: <GuestOnly />,
      children: [{ path: 'login', element: <Page component={LoginPage} /> }],
    },
    { path: 'logout', element: <Page component={LogoutPage} /> },
    { path: 'forms/:formId', element: <Page component={PublicFormPage} /> },
    { path: 'balance', element: <Page component={BalancePage} /> },
    // The print-friendly list: signed in, outside the shell.
    {
      path: 'print',
      element: (
        <RequireAuth>
          <Page component={PrintPage} />
        </RequireAuth>
      ),
    },
    // Everything else, the home page included (a splat alone does not match it).
    { index: true, element: <Page component={ShellRoutes} /> },
    { path: '*', element: <Page component={ShellRoutes} /> },
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
