import { type ComponentType, lazy, useSyncExternalStore } from 'react';

/**
 * Counts route chunks being downloaded, so the loading bar shows while a lazy page loads even
 * when the router keeps the previous page on screen during the transition.
 */
let pending = 0;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function track<T>(promise: Promise<T>): Promise<T> {
  pending += 1;
  emit();
  return promise.finally(() => {
    pending -= 1;
    emit();
  });
}

export function useRouteLoading(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending > 0,
  );
}

/** React.lazy for a page module's default export, with its download tracked. */
// biome-ignore lint/suspicious/noExplicitAny: component props are whatever the page declares
export function lazyPage<P = any>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => track(load()));
}
