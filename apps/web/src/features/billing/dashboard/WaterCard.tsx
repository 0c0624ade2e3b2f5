import '../i18n/index.ts';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import Grid from '@mui/material/Grid';
import { formatAmount } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { type CardRow, CardRows, StatCard } from '../../../components/DashboardCard.tsx';
import { formatDate } from '../../../lib/dates.ts';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLang, useLocalize } from '../../../lib/language.tsx';
import { filteredList } from '../../../lib/listLinks.ts';
import { useCan } from '../../../lib/permissions.ts';

/**
 * The water service: its active consumers (opening their list), and the rows the operator's areas
 * allow — open debts, the newest billing run, the readings still missing in the current period.
 */
export default function WaterCard({ dashboard }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const language = useLang();
  const can = useCan();
  const card = dashboard.cards.waterSummary;
  if (!card) return null;
  const consumersList = filteredList('/consumers', [{ field: 'status', op: 'eq', value: '1' }]);
  const rows: CardRow[] = [];
  if (card.openDebts)
    rows.push({
      key: 'debts',
      primary: t('billingUi.dashboard.openDebts'),
      secondary: t('billingUi.dashboard.debtsCount', { count: card.openDebts.count }),
      end: `${formatAmount(card.openDebts.total, 'money', language)} €`,
      to: localize(can('billing:read') ? '/invoices' : consumersList),
      testId: 'dashboard-water-debts',
    });
  if (card.lastRun !== undefined)
    rows.push({
      key: 'run',
      primary: t('billingUi.dashboard.lastRun'),
      secondary: card.lastRun
        ? t('billingUi.dashboard.runOf', {
            period: card.lastRun.period,
            year: card.lastRun.year,
            state: t(`billingUi.runs.state_${card.lastRun.state}`),
          })
        : t('billingUi.runs.none'),
      end: card.lastRun ? formatDate(card.lastRun.issueDate) : undefined,
      to: localize('/invoices/runs'),
      testId: 'dashboard-water-run',
    });
  if (card.readouts)
    rows.push({
      key: 'readouts',
      primary: t('billingUi.dashboard.readoutsLeft'),
      secondary: t('billingUi.dashboard.period', { period: card.readouts.period, year: card.readouts.year }),
      end: String(card.readouts.left),
      to: localize('/readouts'),
      testId: 'dashboard-water-readouts',
    });
  return (
    <Grid size={{ xs: 12, md: 6, lg: 4 }}>
      <StatCard
        title={t('billingUi.dashboard.water')}
        hint={t('billingUi.dashboard.consumers')}
        count={card.consumers}
        icon={WaterDropOutlinedIcon}
        to={localize(consumersList)}
        testId="dashboard-water"
      >
        {rows.length > 0 && <CardRows rows={rows} empty="" />}
      </StatCard>
    </Grid>
  );
}
