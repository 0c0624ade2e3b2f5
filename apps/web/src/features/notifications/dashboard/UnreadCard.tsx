import '../i18n/index.ts';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { QUARTER, StatCard } from '../../../components/DashboardCard.tsx';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLocalize } from '../../../lib/language.tsx';

/** The operator's unread notifications; the card opens /notifications. */
export default function UnreadCard({ dashboard }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const card = dashboard.cards.unreadNotifications;
  if (!card) return null;
  return (
    <Grid size={QUARTER}>
      <StatCard
        title={t('notificationsPage.dashboard.unread')}
        hint={t('notificationsPage.dashboard.unreadHint')}
        count={card.count}
        icon={NotificationsNoneOutlinedIcon}
        to={localize('/notifications')}
        testId="dashboard-unread"
      />
    </Grid>
  );
}
