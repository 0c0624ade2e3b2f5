import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { reloadOnceForChunkError } from './app/chunkReload.ts';
import { AppProviders } from './app/providers.tsx';
import { AppRouter } from './app/router.tsx';
import { initI18n, loadEnglish } from './i18n/index.ts';
import { loadInstallationEnv } from './lib/env.ts';
import { cookieLang, langFromPath } from './lib/lang.ts';

// The first render is already in the right language: the path's, or English when the cookie says so.
const pathLang = langFromPath(window.location.pathname);
const firstLang = pathLang === 'el' && cookieLang() === 'en' ? 'en' : pathLang;
initI18n(firstLang);

// Spec §7: the installation's settings are read once at start.
loadInstallationEnv();

// A route chunk that cannot be preloaded (a new deployment removed it): reload, at most once a minute.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForChunkError()) event.preventDefault();
});

const container = document.getElementById('root');
if (!container) throw new Error('No #root element');

const root = createRoot(container);
const render = () =>
  root.render(
    <StrictMode>
      <AppProviders>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
if (firstLang === 'en') void loadEnglish().then(render, render);
else render();
