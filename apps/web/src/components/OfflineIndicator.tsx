import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import Alert from '@mui/material/Alert';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

/** How often navigator.onLine is read besides its events. */
const RECHECK_MS = 2000;

function subscribe(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  // Chromium did not always fire 'offline' (the shell e2e: the connection dropped right after the
  // dashboard loaded, and navigator.onLine turned false without an event): it is read again every
  // few seconds too, and React re-renders only when it changed.
  const timer = window.setInterval(listener, RECHECK_MS);
  return () => {
    window.clearInterval(timer);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Follows the browser's online/offline events (spec §4), re-read every few seconds. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine);
}

export function OfflineIndicator() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <Alert
      data-testid="offline-indicator"
      role="status"
      severity="warning"
      variant="filled"
      icon={<CloudOffOutlinedIcon />}
      sx={{
        position: 'fixed',
        bottom: 16,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: (theme) => theme.zIndex.snackbar,
        boxShadow: 6,
        maxWidth: 'calc(100vw - 32px)',
        width: 'max-content',
        bgcolor: '#5c3b00',
        color: '#fff',
      }}
    >
      {t('status.offline')}
    </Alert>
  );
}
