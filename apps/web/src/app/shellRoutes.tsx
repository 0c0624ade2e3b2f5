import './shell/i18n/index.ts';
import { type ComponentType, Suspense } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { NotFoundPage } from '../components/errors/NotFoundPage.tsx';
import type { FeatureRoute, PageLoader } from '../lib/feature.ts';
import { RequireAuth } from '../lib/guards.tsx';
import { lazyPage } from '../lib/routeLoading.ts';
import { useSession } from '../lib/session.tsx';
import { AppErrorBoundary } from './errors/ErrorBoundary.tsx';
import { features } from './features.ts';
import { Page } from './Page.tsx';

const AppLayout = lazyPage(() => import('./shell/AppLayout.tsx'));
const ForbiddenPage = lazyPage(() => import('../components/errors/ForbiddenPage.tsx'));

// One lazy component per page module: paths that share a page (the five documents lists) keep it
// mounted when the user moves between them.
const pages = new Map<PageLoader, ComponentType>();
function pageOf(load: PageLoader): ComponentType {
  let page = pages.get(load);
  if (!page) {
    page = lazyPage(load);
    pages.set(load, page);
  }
  return page;
}

function routeOf({ path, page, requires }: FeatureRoute): RouteObject {
  const element = <Page component={pageOf(page)} requires={requires} />;
  return path === '' ? { index: true, element } : { path, element };
}

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

const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      ...features.flatMap((feature) => (feature.routes ?? []).map(routeOf)),
      { path: 'forbidden', element: <Page component={ForbiddenPage} /> },
    ],
  },
  { path: '*', element: <UnknownRoute /> },
];

/**
 * Every page of the signed-in app, as the features declare them (app/features.ts), below the
 * router's own (sign-in, sign-out, print). A chunk of its own, so the sign-in page loads no
 * feature's declaration; signed out, a known path still goes to the sign-in page.
 */
export default function ShellRoutes() {
  return useRoutes(routes);
}
