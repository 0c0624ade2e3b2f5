/**
 * A tiny notification bus: anything (components, the query client, the API layer) can raise a
 * snackbar; the Notifier component in the app shell renders them (top right, 3000 ms, spec §9).
 */
export type Severity = 'success' | 'info' | 'warning' | 'error';

export interface Notification {
  id: number;
  message: string;
  severity: Severity;
}

type Listener = (notification: Notification) => void;

const listeners = new Set<Listener>();
let nextId = 1;

export function notify(message: string, severity: Severity = 'info'): void {
  const notification = { id: nextId++, message, severity };
  for (const listener of listeners) listener(notification);
}

export function subscribeNotifications(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
