import './i18n/index.ts';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import TodayOutlinedIcon from '@mui/icons-material/TodayOutlined';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { CardRows, QUARTER, StatCard } from '../../../components/DashboardCard.tsx';
import type { DashboardCardProps } from '../../../lib/feature.ts';
import { useLocalize } from '../../../lib/language.tsx';
import { registrationsList } from './links.ts';

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Today's and this month's registrations per book, in the utility's days. */
export default function RegistrationsCards({ dashboard: { today, cards } }: DashboardCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const registrations = cards.registrations;
  if (!registrations) return null;
  const monthStart = `${today.slice(0, 8)}01`;
  return (
    <>
      <Grid size={QUARTER}>
        <StatCard
          title={t('docs.dashboard.today')}
          count={sum(registrations.books.map((book) => book.today))}
          icon={TodayOutlinedIcon}
          to={localize(registrationsList(null, today))}
          testId="dashboard-today"
        >
          <CardRows
            empty={t('docs.dashboard.perBookNone')}
            rows={registrations.books
              .filter((book) => book.today > 0)
              .map((book) => ({
                key: book.bookId,
                primary: book.book,
                end: book.today,
                to: localize(registrationsList(book.book, today)),
                testId: `dashboard-today-book-${book.bookId}`,
              }))}
          />
        </StatCard>
      </Grid>
      <Grid size={QUARTER}>
        <StatCard
          title={t('docs.dashboard.month')}
          count={sum(registrations.books.map((book) => book.month))}
          icon={CalendarMonthOutlinedIcon}
          to={localize(registrationsList(null, monthStart, true))}
          testId="dashboard-month"
        >
          <CardRows
            empty={t('docs.dashboard.perBookNone')}
            rows={registrations.books.map((book) => ({
              key: book.bookId,
              primary: book.book,
              end: book.month,
              to: localize(registrationsList(book.book, monthStart, true)),
              testId: `dashboard-month-book-${book.bookId}`,
            }))}
          />
        </StatCard>
      </Grid>
    </>
  );
}
