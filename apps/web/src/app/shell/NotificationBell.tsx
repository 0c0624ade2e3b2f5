import './i18n/index.ts';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type AppNotification, NOTIFICATION_BADGE_MAX, NOTIFICATION_POLL_MS } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useOpenInCompany } from '../../lib/company.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useInstallationEnv } from '../../lib/env.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import {
  badgeText,
  NOTIFICATIONS_KEY,
  notificationsApi,
  refreshNotifications,
} from '../../lib/notifications.ts';

/**
 * The notification bell (spec §2, §4, §9): the unread count, polled at the installation's interval
 * (60 s by default); a click toggles the newest notifications, fetched on opening. An item opens
 * what it is about and is marked read.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const lang = useLang();
  const env = useInstallationEnv();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const panelId = useId();
  const open = anchor !== null;

  const unread = useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'unread'],
    queryFn: ({ signal }) => notificationsApi.unread(signal),
    refetchInterval: env?.notificationPollMs ?? NOTIFICATION_POLL_MS,
  });
  const count = unread.data ?? 0;
  const shown = badgeText(count, NOTIFICATION_BADGE_MAX);
  // The name holds the badge's text as shown ('9+'), so what is seen is what is announced.
  const label = count > 0 ? t('bell.labelUnread', { count: shown }) : t('bell.label');

  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          data-testid="notification-bell"
          aria-label={label}
          aria-haspopup="dialog"
          aria-controls={open ? panelId : undefined}
          aria-expanded={open}
          onClick={(event) => setAnchor(open ? null : event.currentTarget)}
        >
          {/* The button's name says the count: the badge is only its picture. */}
          <Badge
            color="error"
            badgeContent={count > 0 ? shown : null}
            slotProps={{ badge: { 'aria-hidden': true } }}
            data-testid="notification-badge"
          >
            {count > 0 ? <NotificationsOutlinedIcon /> : <NotificationsNoneOutlinedIcon />}
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={panelId}
        open={open}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            'aria-label': t('bell.title'),
            sx: { width: 380, maxWidth: 'calc(100vw - 16px)', mt: 0.5 },
          },
        }}
      >
        {open && (
          <BellPanel
            lang={lang}
            unread={count}
            onDone={() => {
              setAnchor(null);
              void refreshNotifications(queryClient);
            }}
          />
        )}
      </Popover>
    </>
  );
}

/** The panel's content, mounted while open: so the list is fetched on each opening. */
function BellPanel({ lang, unread, onDone }: { lang: string; unread: number; onDone: () => void }) {
  const { t } = useTranslation();
  const openInCompany = useOpenInCompany();
  const localize = useLocalize();
  const queryClient = useQueryClient();
  const latest = useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'latest', lang],
    queryFn: ({ signal }) => notificationsApi.latest(signal),
    refetchOnMount: 'always',
  });
  const refresh = () => refreshNotifications(queryClient);
  const panel = useRef<HTMLDivElement>(null);
  const markAll = useMutation({
    mutationFn: notificationsApi.markAll,
    onSettled: refresh,
    // The button is disabled now: keep the focus in the panel, so Escape still closes it.
    onSuccess: () => panel.current?.focus(),
  });
  const openOne = useMutation({
    mutationFn: (item: AppNotification) =>
      item.read ? Promise.resolve() : notificationsApi.markOne(item.id),
    onSettled: refresh,
  });

  const choose = (item: AppNotification) => {
    openOne.mutate(item);
    onDone();
    if (item.path) openInCompany(localize(item.path), item.companyId);
  };

  return (
    <Box data-testid="notification-panel" ref={panel} tabIndex={-1} sx={{ outline: 'none' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1, gap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flexGrow: 1 }}>
          {t('bell.title')}
        </Typography>
        <Button
          size="small"
          startIcon={<DoneAllIcon />}
          disabled={unread === 0}
          onClick={() => markAll.mutate()}
          data-testid="notification-mark-all"
        >
          {t('bell.markAllRead')}
        </Button>
      </Box>
      <Divider />
      <Box sx={{ maxHeight: 420, overflowY: 'auto' }}>
        {latest.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress size={24} aria-label={t('bell.loading')} />
          </Box>
        ) : latest.isError ? (
          <Typography color="error" sx={{ p: 2 }}>
            {t('bell.failed')}
          </Typography>
        ) : latest.data.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="notification-empty">
            {t('bell.empty')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {latest.data.map((item) => (
              <ListItem key={item.id} disablePadding>
                <ListItemButton
                  onClick={() => choose(item)}
                  data-testid="notification-item"
                  data-read={item.read}
                  sx={(theme) => ({
                    alignItems: 'flex-start',
                    borderLeft: `3px solid ${item.read ? 'transparent' : theme.palette.primary.main}`,
                    bgcolor: item.read ? undefined : theme.palette.action.hover,
                  })}
                >
                  <ListItemText
                    primary={item.message}
                    secondary={
                      <>
                        <Box component="span" sx={{ display: 'block' }}>
                          {[
                            // The list's own name of the sender ("last first"), so both read the same.
                            item.senderName,
                            formatDateTime(item.createDate),
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </Box>
                        {item.comments && (
                          <Box component="span" sx={{ display: 'block', fontStyle: 'italic' }}>
                            {item.comments}
                          </Box>
                        )}
                      </>
                    }
                    slotProps={{ primary: { sx: { fontWeight: item.read ? 400 : 600 } } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Box>
      <Divider />
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 0.5 }}>
        <Button
          component={RouterLink}
          to={localize('/notifications')}
          onClick={onDone}
          data-testid="notification-show-all"
        >
          {t('bell.showAll')}
        </Button>
      </Box>
    </Box>
  );
}
