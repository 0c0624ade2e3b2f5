import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useInstallationEnv } from '../../lib/env.ts';

const PRODUCT_LICENSE = 'AGPL-3.0-or-later';

/** The open-source components the product is built on, with their licences. */
const COMPONENTS = [
  { name: 'React', url: 'https://react.dev', purpose: 'ui', licence: 'MIT' },
  { name: 'MUI (Material UI)', url: 'https://mui.com', purpose: 'design', licence: 'MIT' },
  { name: 'Fastify', url: 'https://fastify.dev', purpose: 'server', licence: 'MIT' },
  { name: 'Drizzle ORM', url: 'https://orm.drizzle.team', purpose: 'orm', licence: 'Apache-2.0' },
  {
    name: 'PostgreSQL',
    url: 'https://www.postgresql.org',
    purpose: 'database',
    licence: 'PostgreSQL License',
  },
  {
    name: 'PGlite',
    url: 'https://pglite.dev',
    purpose: 'database',
    licence: 'Apache-2.0 / PostgreSQL License',
  },
  { name: 'i18next', url: 'https://www.i18next.com', purpose: 'i18n', licence: 'MIT' },
  { name: 'TanStack Query', url: 'https://tanstack.com/query', purpose: 'data', licence: 'MIT' },
  { name: 'Day.js', url: 'https://day.js.org', purpose: 'dates', licence: 'MIT' },
  { name: 'Zod', url: 'https://zod.dev', purpose: 'validation', licence: 'MIT' },
  { name: 'jose', url: 'https://github.com/panva/jose', purpose: 'tokens', licence: 'MIT' },
] as const;

export default function AboutPage() {
  const { t } = useTranslation();
  const env = useInstallationEnv();
  useAppBar({ title: t('about.title') });
  const appName = env?.appName ?? t('app.name');

  return (
    <Box>
      <PageHeader
        title={appName}
        subtitle={env ? t('about.version', { version: env.version }) : t('about.versionUnknown')}
        avatar={<InfoOutlinedIcon />}
        testId="about-header"
      />
      <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 }, mb: 3 }}>
        <Typography variant="h2" sx={{ fontSize: '1.15rem', mb: 1.5 }}>
          {t('about.title')}
        </Typography>
        <Typography sx={{ lineHeight: 1.75, mb: 2, maxWidth: 900 }}>{t('about.description')}</Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          {env && (
            <Chip label={t('about.version', { version: env.version })} color="primary" variant="outlined" />
          )}
          <Typography variant="body2" color="text.secondary">
            {t('about.license', { license: PRODUCT_LICENSE })}
          </Typography>
        </Box>
      </Paper>
      <Paper variant="outlined">
        <Box sx={{ px: { xs: 2.5, md: 3 }, pt: 2.5, pb: 1 }}>
          <Typography variant="h2" sx={{ fontSize: '1.15rem', mb: 0.5 }} id="about-components">
            {t('about.componentsTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('about.componentsIntro')}
          </Typography>
        </Box>
        <TableContainer>
          <Table size="small" aria-labelledby="about-components" data-testid="about-components">
            <TableHead>
              <TableRow>
                <TableCell sx={{ pl: { xs: 2.5, md: 3 } }}>{t('about.component')}</TableCell>
                <TableCell>{t('about.purpose')}</TableCell>
                <TableCell>{t('about.licence')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {COMPONENTS.map((component) => (
                <TableRow key={component.name} hover>
                  <TableCell sx={{ pl: { xs: 2.5, md: 3 }, fontWeight: 500 }}>
                    <Link href={component.url} target="_blank" rel="noopener noreferrer" underline="hover">
                      {component.name}
                    </Link>
                  </TableCell>
                  <TableCell>{t(`about.purposes.${component.purpose}`)}</TableCell>
                  <TableCell>
                    <Chip size="small" label={component.licence} variant="outlined" />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
    </Box>
  );
}
