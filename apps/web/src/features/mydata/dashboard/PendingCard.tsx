import '../i18n/index.ts';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { QUARTER, StatCard } from '../../../components/DashboardCard.tsx';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLocalize } from '../../../lib/language.tsx';

/** Finalized documents not yet at AADE; the card opens the myDATA list. */
export default function PendingCard({ dashboard }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const card = dashboard.cards.mydataPending;
  if (!card) return null;
  return (
    <Grid size={QUARTER}>
      <StatCard
        title={t('mydata.dashboard.pending')}
        hint={
          card.failed > 0
            ? t('mydata.dashboard.failed', { count: card.failed })
            : t('mydata.dashboard.pendingHint')
        }
        count={card.pending}
        icon={CloudUploadOutlinedIcon}
        to={localize('/mydata')}
        testId="dashboard-mydata-pending"
      />
    </Grid>
  );
}
