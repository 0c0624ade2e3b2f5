import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type Dashboard, utilityDay } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../components/BrandMark.tsx';
import { LinkTile } from '../../components/LinkTile.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useUser } from '../../lib/currentUser.tsx';
import { DATE_FORMAT, localDate } from '../../lib/dates.ts';
import { dashboardCards, dashboardTiles, isAllowed, useFeatures } from '../../lib/feature.ts';
import { useLocalize } from '../../lib/language.tsx';
import { dashboardKey, fetchDashboard } from './api.ts';

export default function DashboardPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const user = useUser();
  const features = useFeatures();
  const tiles = useMemo(() => dashboardTiles(features), [features]);
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
        {tiles
          .filter((tile) => isAllowed(user, tile))
          .map((tile) => (
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
  const query = useQuery({
    queryKey: dashboardKey(),
    queryFn: ({ signal }) => fetchDashboard(signal),
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

function Cards({ dashboard }: { dashboard: Dashboard }) {
  const features = useFeatures();
  const cards = useMemo(() => dashboardCards(features), [features]);
  return (
    <Grid container spacing={2} data-testid="dashboard-cards">
      {cards.map(({ key, component: Card }) => (
        <Suspense key={key} fallback={null}>
          <Card dashboard={dashboard} />
        </Suspense>
      ))}
    </Grid>
  );
}
