import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { type Notification, notify, type Severity, subscribeNotifications } from '../lib/notifier.ts';

/** Spec §9: snackbars stay 3000 ms. */
export const SNACKBAR_TIMEOUT_MS = 3000;
const MAX_VISIBLE = 4;

// The alerts' code loads with the first snackbar, not with the sign-in page.
const SnackbarStack = lazy(() => import('./SnackbarStack.tsx'));

/** Raise a snackbar from anywhere: `const notify = useNotify(); notify(t('…'), 'success')`. */
export function useNotify(): (message: string, severity?: Severity) => void {
  return notify;
}

/** Collects the notifications and shows them top right, under the top bar. */
export function Notifier() {
  const [items, setItems] = useState<Notification[]>([]);
  useEffect(
    () =>
      subscribeNotifications((notification) =>
        setItems((current) => [...current, notification].slice(-MAX_VISIBLE)),
      ),
    [],
  );
  const remove = useCallback(
    (id: number) => setItems((current) => current.filter((item) => item.id !== id)),
    [],
  );
  if (items.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <SnackbarStack items={items} onClose={remove} timeout={SNACKBAR_TIMEOUT_MS} />
    </Suspense>
  );
}
