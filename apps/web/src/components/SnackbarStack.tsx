import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Grow from '@mui/material/Grow';
import { useEffect, useState } from 'react';
import type { Notification } from '../lib/notifier.ts';

interface ItemProps {
  notification: Notification;
  timeout: number;
  onClose: (id: number) => void;
}

function Item({ notification, timeout, onClose }: ItemProps) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setOpen(false), timeout);
    return () => window.clearTimeout(timer);
  }, [timeout]);
  return (
    <Grow in={open} appear onExited={() => onClose(notification.id)} style={{ transformOrigin: 'top right' }}>
      <Alert
        data-testid="snackbar"
        data-severity={notification.severity}
        severity={notification.severity}
        variant="filled"
        onClose={() => setOpen(false)}
        sx={{ minWidth: 280, maxWidth: 440, boxShadow: 6, alignItems: 'center' }}
      >
        {notification.message}
      </Alert>
    </Grow>
  );
}

/** The snackbar stack, top right under the top bar (spec §2). */
export default function SnackbarStack({
  items,
  timeout,
  onClose,
}: {
  items: Notification[];
  timeout: number;
  onClose: (id: number) => void;
}) {
  return (
    <Box
      sx={{
        position: 'fixed',
        top: 62,
        right: 16,
        zIndex: (theme) => theme.zIndex.snackbar,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'flex-end',
        gap: 1,
      }}
    >
      {items.map((item) => (
        <Item key={item.id} notification={item} timeout={timeout} onClose={onClose} />
      ))}
    </Box>
  );
}
