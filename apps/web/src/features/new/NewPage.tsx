import AddCircleOutlinedIcon from '@mui/icons-material/AddCircleOutlined';
import PostAddOutlinedIcon from '@mui/icons-material/PostAddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LinkTile } from '../../components/LinkTile.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useUser } from '../../lib/currentUser.tsx';
import { isAllowed, newEntries, useFeatures } from '../../lib/feature.ts';
import { useLocalize } from '../../lib/language.tsx';

/** /new: what the user may create, one entry per module that exists. */
export default function NewPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const user = useUser();
  useAppBar({ title: t('new.title') });
  const entries = newEntries(useFeatures()).filter((entry) => isAllowed(user, entry));

  return (
    <Box>
      <PageHeader title={t('new.title')} subtitle={t('new.subtitle')} avatar={<AddCircleOutlinedIcon />} />
      {entries.length === 0 ? (
        <Paper
          variant="outlined"
          data-testid="new-empty"
          sx={{ py: { xs: 6, md: 9 }, px: 3, textAlign: 'center', borderStyle: 'dashed' }}
        >
          <Box
            sx={{
              width: 80,
              height: 80,
              mx: 'auto',
              mb: 2.5,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'action.hover',
              color: 'text.secondary',
            }}
          >
            <PostAddOutlinedIcon sx={{ fontSize: 40 }} />
          </Box>
          <Typography variant="h2" sx={{ fontSize: '1.2rem', mb: 1 }}>
            {t('new.emptyTitle')}
          </Typography>
          <Typography color="text.secondary" sx={{ maxWidth: 520, mx: 'auto', mb: 3, lineHeight: 1.7 }}>
            {t('new.emptyText')}
          </Typography>
          <Button variant="outlined" component={RouterLink} to={localize('/')}>
            {t('new.backHome')}
          </Button>
        </Paper>
      ) : (
        <Grid container spacing={2}>
          {entries.map((entry) => (
            <Grid key={entry.key} size={{ xs: 12, sm: 6, lg: 4 }}>
              <LinkTile
                to={localize(entry.path)}
                icon={entry.icon}
                title={t(entry.label)}
                description={t(entry.description)}
                testId={`new-${entry.key}`}
              />
            </Grid>
          ))}
        </Grid>
      )}
    </Box>
  );
}
