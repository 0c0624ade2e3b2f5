import AssignmentIndOutlinedIcon from '@mui/icons-material/AssignmentIndOutlined';
import BarChartOutlinedIcon from '@mui/icons-material/BarChartOutlined';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import FolderOpenOutlinedIcon from '@mui/icons-material/FolderOpenOutlined';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import TodayOutlinedIcon from '@mui/icons-material/TodayOutlined';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type Dashboard, utilityDay } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCompany } from '../../app/company.tsx';
import { useUser } from '../../app/currentUser.tsx';
import { dashboardTiles, isAllowed } from '../../app/feature.ts';
import { features } from '../../app/features.ts';
import { useLocalize } from '../../app/language.tsx';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { BrandMark } from '../../components/BrandMark.tsx';
import { LinkTile } from '../../components/LinkTile.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { DATE_FORMAT, formatDate, localDate } from '../../lib/dates.ts';
import { dashboardKey, fetchDashboard } from './api.ts';
import { CardRows, StatCard } from './DashboardCards.tsx';
import { chargedToMeList, registrationsList } from './links.ts';
import { RegistrationsChart } from './RegistrationsChart.tsx';
import './i18n/index.ts';

const TILES = dashboardTiles(features);
/** The notifications list comes with its own feature; until it is there the card is not a link. */
const HAS_NOTIFICATIONS_PAGE = features.some((feature) =>
  feature.routes?.some((route) => route.path === 'notifications'),
);

export default function DashboardPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const user = useUser();
  useAppBar({ title: t('dashboard.title') });
  // The utility's day, not the browser's: a browser in UTC at 23:30 is already on the next day in Athens.
  const today = localDate(utilityDay(new Date()));

  return (
    <Box>
      <Paper
        elevation={0}
        sx={(theme) => ({
          position: 'relative',
          overflow: 'hidden',
          p: { xs: 3, md: 4 },
          mb: 3,
          borderRadius: 3,
          color: '#fff',
          background:
            theme.palette.mode === 'light'
              ? 'linear-gradient(120deg, #3d00c4 0%, #5000ff 60%, #2d6bff 100%)'
              : 'linear-gradient(120deg, #1b1f2b 0%, #1d2a3a 60%, #0b3b4d 100%)',
          border: theme.palette.mode === 'light' ? 'none' : `1px solid ${theme.palette.divider}`,
        })}
      >
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            right: -40,
            top: -60,
            width: 260,
            height: 260,
            borderRadius: '50%',
            background: 'radial-gradient(circle, rgba(0,200,254,0.45) 0%, rgba(0,200,254,0) 70%)',
          }}
        />
        <Box sx={{ position: 'relative', display: 'flex', alignItems: 'center', gap: 2.5 }}>
          <Box sx={{ display: { xs: 'none', sm: 'block' } }}>
            <BrandMark size={56} inverted />
          </Box>
          <Box>
            <Typography
              variant="h1"
              data-testid="dashboard-greeting"
              sx={{ fontSize: { xs: '1.5rem', md: '1.9rem' } }}
            >
              {t('dashboard.greeting', { firstName: user.firstname, lastName: user.lastname })}
            </Typography>
            <Typography sx={{ mt: 0.75, opacity: 0.88, textTransform: 'none' }}>
              {t('dashboard.today', { date: `${today.format('dddd')} ${today.format(DATE_FORMAT)}` })}
            </Typography>
          </Box>
        </Box>
      </Paper>

      <DashboardCardsSection />

      <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1.5, mt: 3 }}>
        {t('dashboard.shortcuts')}
      </Typography>
      <Grid container spacing={2}>
        {TILES.filter((tile) => isAllowed(user, tile)).map((tile) => (
          <Grid key={tile.key} size={{ xs: 12, sm: 6, lg: 4 }}>
            <LinkTile
              to={localize(tile.path(user))}
              icon={tile.icon}
              title={t(tile.label)}
              description={t(tile.description)}
              testId={tile.testId}
            />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}

/** The cards of GET /api/dashboard: each present only when the operator may see what it counts. */
function DashboardCardsSection() {
  const { companyId } = useCompany();
  const query = useQuery({
    queryKey: dashboardKey(companyId),
    queryFn: ({ signal }) => fetchDashboard(companyId, signal),
  });
  if (query.isError) return <RetryAlert error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data)
    return (
      <Grid container spacing={2}>
        {[0, 1, 2, 3].map((key) => (
          <Grid key={key} size={{ xs: 12, sm: 6, lg: 3 }}>
            <Skeleton variant="rounded" height={120} />
          </Grid>
        ))}
      </Grid>
    );
  return <Cards dashboard={query.data} />;
}

function Cards({ dashboard: { today, cards } }: { dashboard: Dashboard }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const user = useUser();
  const monthStart = `${today.slice(0, 8)}01`;
  const { chargedToMe, registrations, unreadNotifications, recentCases } = cards;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const quarter = { xs: 12, sm: 6, lg: 3 } as const;
  return (
    <Grid container spacing={2} data-testid="dashboard-cards">
      {chargedToMe && (
        <Grid size={quarter}>
          <StatCard
            title={t('dashboard.cards.chargedToMe')}
            hint={t('dashboard.cards.chargedToMeHint')}
            count={chargedToMe.count}
            icon={AssignmentIndOutlinedIcon}
            to={localize(chargedToMeList(user.id))}
            testId="dashboard-charged"
          >
            <CardRows
              empty={t('dashboard.cards.chargedToMeNone')}
              rows={chargedToMe.recent.map((document) => ({
                key: document.id,
                primary: document.subject,
                secondary: [document.protocolId, formatDate(document.protocolDate)]
                  .filter(Boolean)
                  .join(' · '),
                to: localize(`/document/${document.id}/edit`),
              }))}
            />
          </StatCard>
        </Grid>
      )}
      {registrations && (
        <>
          <Grid size={quarter}>
            <StatCard
              title={t('dashboard.cards.today')}
              count={sum(registrations.books.map((book) => book.today))}
              icon={TodayOutlinedIcon}
              to={localize(registrationsList(null, today))}
              testId="dashboard-today"
            >
              <CardRows
                empty={t('dashboard.cards.perBookNone')}
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
          <Grid size={quarter}>
            <StatCard
              title={t('dashboard.cards.month')}
              count={sum(registrations.books.map((book) => book.month))}
              icon={CalendarMonthOutlinedIcon}
              to={localize(registrationsList(null, monthStart, true))}
              testId="dashboard-month"
            >
              <CardRows
                empty={t('dashboard.cards.perBookNone')}
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
      )}
      {unreadNotifications && (
        <Grid size={quarter}>
          <StatCard
            title={t('dashboard.cards.unread')}
            hint={t('dashboard.cards.unreadHint')}
            count={unreadNotifications.count}
            icon={NotificationsNoneOutlinedIcon}
            to={HAS_NOTIFICATIONS_PAGE ? localize('/notifications') : undefined}
            testId="dashboard-unread"
          />
        </Grid>
      )}
      {registrations && (
        <Grid size={{ xs: 12, lg: 8 }}>
          <StatCard
            title={t('dashboard.cards.chart')}
            hint={t('dashboard.cards.chartTotal', { count: sum(registrations.days.map((d) => d.count)) })}
            icon={BarChartOutlinedIcon}
            to={localize(registrationsList(null, registrations.days[0]?.day ?? today, true))}
            testId="dashboard-series"
          >
            <RegistrationsChart days={registrations.days} />
          </StatCard>
        </Grid>
      )}
      {recentCases && (
        <Grid size={{ xs: 12, lg: 4 }}>
          <StatCard
            title={t('dashboard.cards.recentCases')}
            icon={FolderOpenOutlinedIcon}
            to={localize('/cases')}
            testId="dashboard-cases"
          >
            <CardRows
              empty={t('dashboard.cards.recentCasesNone')}
              rows={recentCases.items.map((item) => ({
                key: item.id,
                primary: `${item.code} ${item.name}`,
                secondary: [formatDate(item.createdate), item.closed ? t('dashboard.cards.closed') : '']
                  .filter(Boolean)
                  .join(' · '),
                to: localize(`/cases/${item.id}/edit`),
              }))}
            />
          </StatCard>
        </Grid>
      )}
    </Grid>
  );
}
