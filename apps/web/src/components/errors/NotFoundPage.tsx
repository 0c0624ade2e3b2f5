import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';

interface Props {
  /** 404, 500 or 503: all show the same page (spec §2). */
  status?: number;
  /** An unknown route: also says 'This page could not be found'. */
  missing?: boolean;
  /** Rendered alone (no shell around it): it then provides the main landmark itself. */
  standalone?: boolean;
}

export function NotFoundPage({ status = 404, missing = false, standalone = false }: Props) {
  const { t } = useTranslation();
  const localize = useLocalize();
  useAppBar({ title: t('errorPage.notFoundTitle') });
  return (
    <Box
      component={standalone ? 'main' : 'section'}
      data-testid="not-found"
      data-status={status}
      sx={{
        minHeight: standalone ? '100vh' : 'calc(100vh - 160px)',
        display: 'grid',
        placeItems: 'center',
        p: 3,
        textAlign: 'center',
      }}
    >
      <Box sx={{ maxWidth: 620 }}>
        <Typography
          aria-hidden
          sx={{
            fontSize: { xs: '5rem', sm: '7rem' },
            fontWeight: 700,
            lineHeight: 1,
            letterSpacing: '-0.04em',
            color: 'primary.main',
            opacity: 0.9,
          }}
        >
          {status}
        </Typography>
        {missing && (
          <Typography variant="overline" component="p" color="text.secondary" sx={{ mt: 1 }}>
            {status} · {t('errorPage.missing')}
          </Typography>
        )}
        <Typography variant="h1" sx={{ mt: 2, mb: 2 }}>
          {t('errorPage.notFoundTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4, lineHeight: 1.7 }}>
          {t('errorPage.notFoundText')}
        </Typography>
        <Button variant="contained" size="large" component={RouterLink} to={localize('/')}>
          {t('errorPage.goBack')}
        </Button>
      </Box>
    </Box>
  );
}
