import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useUser } from '../../app/currentUser.tsx';
import { useLocalize } from '../../app/language.tsx';
import { dashboardTiles } from '../../app/modules.tsx';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { BrandMark } from '../../components/BrandMark.tsx';
import { DATE_FORMAT, localDate } from '../../lib/dates.ts';

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
        {dashboardTiles.map((tile) => {
          const Icon = tile.icon;
          return (
            <Grid key={tile.key} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Card
                variant="outlined"
                sx={{
                  height: '100%',
                  transition: 'box-shadow .2s, border-color .2s',
                  '&:hover': { boxShadow: 4, borderColor: 'primary.main' },
                }}
              >
                <CardActionArea
                  component={RouterLink}
                  to={localize(tile.path(user))}
                  data-testid={tile.testId}
                  sx={{ height: '100%' }}
                >
                  <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', p: 2.5 }}>
                    <Box
                      sx={(theme) => ({
                        width: 48,
                        height: 48,
                        flexShrink: 0,
                        borderRadius: 2,
                        display: 'grid',
                        placeItems: 'center',
                        color: theme.palette.mode === 'light' ? 'primary.main' : 'primary.light',
                        bgcolor:
                          theme.palette.mode === 'light'
                            ? 'rgba(80, 0, 255, 0.08)'
                            : 'rgba(0, 200, 254, 0.12)',
                      })}
                    >
                      <Icon />
                    </Box>
                    <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                      <Typography variant="h3" sx={{ fontSize: '1.05rem', mb: 0.5 }}>
                        {t(tile.label)}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t(tile.description)}
                      </Typography>
                    </Box>
                    <ArrowForwardIcon fontSize="small" sx={{ color: 'text.secondary', mt: 0.5 }} />
                  </CardContent>
                </CardActionArea>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </Box>
  );
}
