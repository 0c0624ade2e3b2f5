// The app's service worker (installed by the readouts field entry, features/readouts/serviceWorker.ts).
// Pages and the app's files: from the network when there is one, else the copy kept here, so the
// meter reader's phone opens the app without a connection. The few API answers the field entry needs
// to start (the user, the installation, the routes and the route's sheet) are kept the same way;
// nothing else of the API is stored, and writes always go to the network (the page queues them).
const CACHE = 'protocol-shell-v1';
const API_KEPT = [
  /^\/api\/users\/authenticatedUser$/,
  /^\/api\/installation/,
  /^\/api\/readouts\/routes$/,
  /^\/api\/readouts\/sheet$/,
];
// Of those, the ones that differ per company. The page names the company in use in a header, not in the
// address (issue 30): these are kept under their address and that company, so another company's routes
// are never the ones shown offline. The user and the installation are the same whatever the company (and
// asked before it is known).
const API_PER_COMPANY = [/^\/api\/readouts\/routes$/, /^\/api\/readouts\/sheet$/];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['/', '/manifest.webmanifest', '/favicon.svg']))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page sends the app files it loaded before this worker controlled it, to keep them too.
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'keep' || !Array.isArray(event.data.urls)) return;
  const urls = event.data.urls.filter(
    (u) => new URL(u, self.location.origin).origin === self.location.origin,
  );
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(urls)));
});

/** The cache key of an answer: a per-company one's address names the company of the request. */
function keptAs(request) {
  const url = new URL(request.url);
  const company = request.headers.get('X-Company-Id');
  if (!company || !API_PER_COMPANY.some((pattern) => pattern.test(url.pathname))) return request;
  url.searchParams.set('companyid', company);
  return url.href;
}

async function networkFirst(request, fallbackUrl) {
  const cache = await caches.open(CACHE);
  const key = keptAs(request);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = (await cache.match(key)) ?? (fallbackUrl ? await cache.match(fallbackUrl) : undefined);
    if (kept) return kept;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/')) {
    if (API_KEPT.some((pattern) => pattern.test(url.pathname))) event.respondWith(networkFirst(request));
    return;
  }
  if (request.mode === 'navigate') event.respondWith(networkFirst(request, '/'));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirst(request));
  else event.respondWith(networkFirst(request));
});
