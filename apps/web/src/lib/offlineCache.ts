/**
 * Signing out forgets the API answers the service worker keeps for offline use (the user, the routes, a
 * route's sheet), so the next person on a shared phone cannot read them without signing in. The app's own
 * files stay cached: they hold no one's data.
 */
export async function forgetCachedApiAnswers() {
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname.startsWith('/api/')) await cache.delete(request);
    }
  }
}
