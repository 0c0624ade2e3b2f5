import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../app/currentUser.tsx';
import { dashboardTiles, isAllowed } from '../../app/feature.ts';
import { features } from '../../app/features.ts';
import { useLocalize } from '../../app/language.tsx';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { BrandMark } from '../../components/BrandMark.tsx';
import { LinkTile } from '../../components/LinkTile.tsx';
import { DATE_FORMAT, localDate } from '../../lib/dates.ts';

const TILES = dashboardTiles(features);

export default function DashboardPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const user = useUser();
  useAppBar({ title: t('dashboard.title') });
  const today = localDate();

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

      <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 1.5 }}>
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
