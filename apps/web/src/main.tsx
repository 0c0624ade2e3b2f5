import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { reloadOnceForChunkError } from './app/chunkReload.ts';
import { loadInstallationEnv } from './app/env.ts';
import { AppProviders } from './app/providers.tsx';
import { AppRouter } from './app/router.tsx';
import { initI18n } from './i18n/index.ts';
import { cookieLang, langFromPath } from './lib/lang.ts';

// The first render is already in the right language: the path's, or English when the cookie says so.
const pathLang = langFromPath(window.location.pathname);
initI18n(pathLang === 'el' && cookieLang() === 'en' ? 'en' : pathLang);

// Spec §7: the installation's settings are read once at start.
loadInstallationEnv();

// A route chunk that cannot be preloaded (a new deployment removed it): reload, at most once a minute.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForChunkError()) event.preventDefault();
});

const container = document.getElementById('root');
if (!container) throw new Error('No #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
