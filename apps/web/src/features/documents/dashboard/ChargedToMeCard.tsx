import './i18n/index.ts';
import AssignmentIndOutlinedIcon from '@mui/icons-material/AssignmentIndOutlined';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { CardRows, QUARTER, StatCard } from '../../../components/DashboardCard.tsx';
import { useUser } from '../../../lib/currentUser.tsx';
import { formatDate } from '../../../lib/dates.ts';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLocalize } from '../../../lib/language.tsx';
import { chargedToMeList } from './links.ts';

/** Active documents whose current charge is the operator, with the newest of them. */
export default function ChargedToMeCard({ dashboard }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const user = useUser();
  const card = dashboard.cards.chargedToMe;
  if (!card) return null;
  return (
    <Grid size={QUARTER}>
      <StatCard
        title={t('docs.dashboard.chargedToMe')}
        hint={t('docs.dashboard.chargedToMeHint')}
        count={card.count}
        icon={AssignmentIndOutlinedIcon}
        to={localize(chargedToMeList(user.id))}
        testId="dashboard-charged"
      >
        <CardRows
          empty={t('docs.dashboard.chargedToMeNone')}
          rows={card.recent.map((document) => ({
            key: document.id,
            primary: document.subject,
            secondary: [document.protocolId, formatDate(document.protocolDate)].filter(Boolean).join(' · '),
            to: localize(`/document/${document.id}/edit`),
          }))}
        />
      </StatCard>
    </Grid>
  );
}
