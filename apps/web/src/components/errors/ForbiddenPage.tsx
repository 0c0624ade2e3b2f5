import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';

interface Props {
  /** Why, e.g. the server's reason for refusing a record; the page's general text by default. */
  message?: string;
}

/** 403: the /forbidden route, and the look of a page that refuses to show a record. */
export default function ForbiddenPage({ message }: Props) {
  const { t } = useTranslation();
  const localize = useLocalize();
  useAppBar({ title: t('errorPage.forbiddenTitle') });
  return (
    <Box
      data-testid="forbidden"
      sx={{
        minHeight: 'calc(100vh - 160px)',
        display: 'grid',
        placeItems: 'center',
        textAlign: 'center',
        p: 3,
      }}
    >
      <Box sx={{ maxWidth: 560 }}>
        <Box
          sx={{
            width: 88,
            height: 88,
            mx: 'auto',
            mb: 3,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'action.hover',
            color: 'primary.main',
          }}
        >
          <LockOutlinedIcon sx={{ fontSize: 44 }} />
        </Box>
        <Typography variant="h1" gutterBottom>
          {t('errorPage.forbiddenTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4, lineHeight: 1.7 }} data-testid="forbidden-message">
          {message ?? t('errorPage.forbiddenText')}
        </Typography>
        <Button variant="contained" component={RouterLink} to={localize('/')}>
          {t('errorPage.home')}
        </Button>
      </Box>
    </Box>
  );
}
