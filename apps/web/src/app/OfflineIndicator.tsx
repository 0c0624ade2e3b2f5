import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import Alert from '@mui/material/Alert';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Follows the browser's online/offline events (spec §4). */
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
