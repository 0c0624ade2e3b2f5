import '../i18n/index.ts';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import Grid from '@mui/material/Grid';
import { formatAmount } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { CardRows, StatCard } from '../../../components/DashboardCard.tsx';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLang, useLocalize } from '../../../lib/language.tsx';
import { filteredList } from '../../../lib/listLinks.ts';
import { useCan } from '../../../lib/permissions.ts';

/**
 * This month's finalized commercial documents and their total (opening the documents list filtered
 * the same way), and those of a myDATA series still unsent (opening /mydata for who may send).
 */
export default function FinanceCard({ dashboard }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const language = useLang();
  const can = useCan();
  const card = dashboard.cards.financeSummary;
  if (!card) return null;
  const monthList = filteredList(
    '/finance/documents',
    [
      { field: 'date', op: 'gte', value: `${dashboard.today.slice(0, 8)}01` },
      { field: 'entryState', op: 'eq', value: '9' },
    ],
    'date,DESC',
  );
  return (
    <Grid size={{ xs: 12, md: 6, lg: 4 }}>
      <StatCard
        title={t('finance.dashboard.month')}
        hint={t('finance.dashboard.total', { total: formatAmount(card.month.total, 'money', language) })}
        count={card.month.count}
        icon={ReceiptLongOutlinedIcon}
        to={localize(monthList)}
        testId="dashboard-finance"
      >
        <CardRows
          empty=""
          rows={[
            {
              key: 'unsent',
              primary: t('finance.dashboard.unsent'),
              end: String(card.unsent),
              to: localize(can('mydata:read') ? '/mydata' : monthList),
              testId: 'dashboard-finance-unsent',
            },
          ]}
        />
      </StatCard>
    </Grid>
  );
}
