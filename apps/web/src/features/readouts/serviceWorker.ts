import { api } from '../../lib/api.ts';

/** What the app asks for at start, kept by the worker so the field entry opens without a connection. */
const START_CALLS = ['/api/users/authenticatedUser', '/api/installation/env'];

/**
 * Installs the app's service worker (public/sw.js) when the field entry is opened: from then on the
 * app shell and the route's sheet open without a connection, and the app can be installed on the
 * meter reader's phone (public/manifest.webmanifest). Resolves once the worker controls the page
 * (false when there is none: the page still works online and queues offline; only a reload
 * offline is lost).
 */
export async function registerFieldWorker(): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  // The manifest is linked here, not in index.html: linked on every page it stopped Chromium's offline
  // emulation from reaching the shell's offline indicator (e2e shell test).
  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/manifest.webmanifest';
    document.head.append(link);
  }
  try {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    const worker = (await navigator.serviceWorker.ready).active;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    // This page's files and start-up calls came before the worker was there: it keeps them now.
    const urls = performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === window.location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.pathname);
    worker?.postMessage({ type: 'keep', urls: [...new Set(urls)] });
    await Promise.allSettled(START_CALLS.map((call) => api.get(call)));
    return true;
  } catch (error) {
    console.warn('The service worker could not be installed', error);
    return false;
  }
}
