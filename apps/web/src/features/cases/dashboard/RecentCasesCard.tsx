import '../i18n/index.ts';
import FolderOpenOutlinedIcon from '@mui/icons-material/FolderOpenOutlined';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { CardRows, StatCard } from '../../../components/DashboardCard.tsx';
import { formatDate } from '../../../lib/dates.ts';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLocalize } from '../../../lib/language.tsx';

/** The newest case files, each opening its folder. */
export default function RecentCasesCard({ dashboard }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const card = dashboard.cards.recentCases;
  if (!card) return null;
  return (
    <Grid size={{ xs: 12, lg: 4 }}>
      <StatCard
        title={t('cases.dashboard.recent')}
        icon={FolderOpenOutlinedIcon}
        to={localize('/cases')}
        testId="dashboard-cases"
      >
        <CardRows
          empty={t('cases.dashboard.none')}
          rows={card.items.map((item) => ({
            key: item.id,
            primary: `${item.code} ${item.name}`,
            secondary: [formatDate(item.createdate), item.closed ? t('cases.dashboard.closed') : '']
              .filter(Boolean)
              .join(' · '),
            to: localize(`/cases/${item.id}/edit`),
          }))}
        />
      </StatCard>
    </Grid>
  );
}
