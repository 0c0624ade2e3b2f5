import './i18n/index.ts';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type AppNotification, notificationsCatalog } from '@protocol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useOpenInCompany } from '../../lib/company.tsx';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { NOTIFICATIONS_SEARCH_URL, notificationsApi, refreshNotifications } from '../../lib/notifications.ts';

type NotificationRow = AppNotification & Record<string, unknown>;

/**
 * /notifications: every notification of the operator on the list engine, with the header filters
 * of its catalog (unread, kind, date) and mass mark-as-read of the selected rows.
 */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const openInCompany = useOpenInCompany();
  const localize = useLocalize();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const title = t('notifications.title');
  useAppBar({ title });
  const [selected, setSelected] = useState<NotificationRow[]>([]);
  // A new table after marking: it reloads and forgets the selection, keeping its filters (URL).
  const [reload, setReload] = useState(0);
  const lang = useLang();
  // The rows carry their messages in the page's language, and the bell may have marked some read
  // since the table was cached: ask again on opening and in another language.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new language means new messages
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['list', NOTIFICATIONS_SEARCH_URL], refetchType: 'all' });
  }, [queryClient, lang]);

  const marked = async (updated: number) => {
    setSelected([]);
    setReload((value) => value + 1);
    await refreshNotifications(queryClient);
    notify(t('notificationsPage.marked', { count: updated }), 'success');
  };
  const markSelected = useMutation({
    mutationFn: () => notificationsApi.markMany(selected.map((row) => row.id)),
    onSuccess: ({ updated }) => marked(updated),
  });
  const markAll = useMutation({
    mutationFn: notificationsApi.markAll,
    onSuccess: ({ updated }) => marked(updated),
  });

  const onRowClick = useCallback(
    (row: NotificationRow) => {
      if (!row.read) void notificationsApi.markOne(row.id).then(() => refreshNotifications(queryClient));
      if (row.path) openInCompany(localize(row.path), row.companyId);
    },
    [openInCompany, localize, queryClient],
  );

  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('notificationsPage.subtitle')}
        avatar={<NotificationsOutlinedIcon />}
        testId="notifications-header"
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              startIcon={<MarkEmailReadOutlinedIcon />}
              disabled={selected.length === 0 || markSelected.isPending}
              onClick={() => markSelected.mutate()}
              data-testid="notifications-mark-selected"
            >
              {t('notificationsPage.markSelectedRead')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<DoneAllIcon />}
              disabled={markAll.isPending}
              onClick={() => markAll.mutate()}
              data-testid="notifications-mark-all"
            >
              {t('notificationsPage.markAllRead')}
            </Button>
          </Box>
        }
      />
      <DataTable<NotificationRow>
        key={reload}
        catalog={notificationsCatalog}
        searchUrl={NOTIFICATIONS_SEARCH_URL}
        title={title}
        onRowClick={onRowClick}
        rowLabel={(row) => row.message}
        rowSecondary={(row) => row.senderName ?? ''}
        onSelectionChange={setSelected}
      />
    </>
  );
}
