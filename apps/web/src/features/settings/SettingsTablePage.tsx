import './i18n/index.ts';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { NotFoundPage } from '../../components/errors/NotFoundPage.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { ExportMenu } from './ExportMenu.tsx';
import { findSettingsScreen, type SettingsScreen } from './registry.ts';

/** /settings/{table}: one settings table, or the 404 page. */
export default function SettingsTablePage() {
  const { table } = useParams();
  const screen = findSettingsScreen(table);
  if (!screen) return <NotFoundPage missing />;
  return <SettingsTableView key={screen.code} screen={screen} />;
}

function SettingsTableView({ screen }: { screen: SettingsScreen }) {
  const { t } = useTranslation();
  useAppBar({ title: t('settings.hub.title') });
  const title = t(screen.titleKey);
  const Icon = screen.icon;
  const Table = screen.component;
  const exportUri = screen.searchUri;
  return (
    <Box data-testid={`settings-page-${screen.code}`}>
      <PageHeader
        title={title}
        subtitle={t(screen.descriptionKey)}
        avatar={<Icon />}
        actions={<ExportMenu uri={exportUri} catalog={screen.catalog} title={title} />}
      />
      <Suspense fallback={<Skeleton variant="rounded" height={320} />}>
        <Table />
      </Suspense>
    </Box>
  );
}
