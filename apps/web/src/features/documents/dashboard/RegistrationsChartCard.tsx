import './i18n/index.ts';
import BarChartOutlinedIcon from '@mui/icons-material/BarChartOutlined';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../../components/DashboardCard.tsx';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLocalize } from '../../../lib/language.tsx';
import { registrationsList } from './links.ts';
import { RegistrationsChart } from './RegistrationsChart.tsx';

/** Registrations per day over the last 30 utility days; a bar opens that day's documents. */
export default function RegistrationsChartCard({ dashboard: { today, cards } }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const registrations = cards.registrations;
  if (!registrations) return null;
  const total = registrations.days.reduce((sum, day) => sum + day.count, 0);
  return (
    <Grid size={{ xs: 12, lg: 8 }}>
      <StatCard
        title={t('docs.dashboard.chart')}
        hint={t('docs.dashboard.chartTotal', { count: total })}
        icon={BarChartOutlinedIcon}
        to={localize(registrationsList(null, registrations.days[0]?.day ?? today, true))}
        testId="dashboard-series"
      >
        <RegistrationsChart days={registrations.days} />
      </StatCard>
    </Grid>
  );
}
