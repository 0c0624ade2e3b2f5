import { Component, type ErrorInfo, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { NotFoundPage } from '../../components/errors/NotFoundPage.tsx';
import { isApiError } from '../../lib/api.ts';
import { langFromPath, localizePath, stripLang } from '../../lib/lang.ts';
import { isChunkLoadError, reloadOnceForChunkError } from '../chunkReload.ts';

/** Statuses shown with the 'Page not found.' page (spec §2). */
const PAGE_STATUSES = new Set([404, 500, 503]);

export function errorStatus(error: unknown): number | undefined {
  if (isApiError(error)) return error.status;
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return undefined;
}

/** The last resort: an error while rendering the error page itself (spec §8). */
function NestedErrorPage() {
  const lang = langFromPath(window.location.pathname);
  const { t } = useTranslation();
  return (
    <main style={{ padding: 32, fontFamily: 'Roboto, Arial, sans-serif', textAlign: 'center' }}>
      <h1 style={{ fontSize: 22 }}>{t('errorPage.nested')}</h1>
      <a href={localizePath('/', lang)}>{t('errorPage.home')}</a>
    </main>
  );
}

class NestedBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error) {
    console.error('Error while showing the error page', error);
  }
  override render() {
    return this.state.failed ? <NestedErrorPage /> : this.props.children;
  }
}

/** What an error turns into: a chunk failure reloads, 404/500/503 show the page, others go home. */
function ErrorResolver({
  error,
  atHome,
  standalone,
}: {
  error: unknown;
  atHome: boolean;
  standalone: boolean;
}) {
  const location = useLocation();
  const chunk = isChunkLoadError(error);
  const status = errorStatus(error);
  const shown = status !== undefined && PAGE_STATUSES.has(status);
  const [chunkFailed, setChunkFailed] = useState(false);

  useEffect(() => {
    if (chunk) {
      if (!reloadOnceForChunkError()) setChunkFailed(true);
    } else if (!shown) {
      console.error('Unexpected error', error);
    }
  }, [chunk, shown, error]);

  let pageStatus: number | undefined;
  if (chunk) {
    if (!chunkFailed) return null;
    pageStatus = 503;
  } else if (shown) pageStatus = status;
  else if (atHome) pageStatus = 500;

  if (pageStatus === undefined) {
    return <Navigate to={localizePath('/', langFromPath(location.pathname))} replace />;
  }
  return (
    <NestedBoundary>
      <NotFoundPage status={pageStatus} standalone={standalone} />
    </NestedBoundary>
  );
}

interface BoundaryProps {
  children: ReactNode;
  resetKey: string;
  atHome: boolean;
  standalone: boolean;
}

class Boundary extends Component<BoundaryProps, { error: unknown; failed: boolean }> {
  override state = { error: undefined as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override componentDidCatch(_error: Error, info: ErrorInfo) {
    if (info.componentStack) console.debug(info.componentStack);
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) {
      this.setState({ error: undefined, failed: false });
    }
  }

  override render() {
    if (this.state.failed) {
      return (
        <ErrorResolver
          error={this.state.error}
          atHome={this.props.atHome}
          standalone={this.props.standalone}
        />
      );
    }
    return this.props.children;
  }
}

/** Catches rendering errors of the pages below it; resets when the path changes. */
export function AppErrorBoundary({
  children,
  standalone = false,
}: {
  children: ReactNode;
  standalone?: boolean;
}) {
  const location = useLocation();
  const atHome = ['/', '/dashboard'].includes(stripLang(location.pathname));
  return (
    <Boundary resetKey={location.pathname} atHome={atHome} standalone={standalone}>
      {children}
    </Boundary>
  );
}
