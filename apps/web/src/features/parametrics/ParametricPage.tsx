import './i18n/index.ts';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { NotFoundPage } from '../../components/errors/NotFoundPage.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { findParametricTable } from './registry.ts';

/** /parametrics/{parametricCode}: the parametric table of that code, or the 404 page. */
export default function ParametricPage() {
  const { parametricCode } = useParams();
  const table = findParametricTable(parametricCode);
  if (!table) return <NotFoundPage missing />;
  return (
    <ParametricTableView key={parametricCode} titleKey={table.titleKey} descriptionKey={table.descriptionKey}>
      <table.component />
    </ParametricTableView>
  );
}

function ParametricTableView({
  titleKey,
  descriptionKey,
  children,
}: {
  titleKey: string;
  descriptionKey: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  useAppBar({ title: t('parametrics.title') });
  return (
    <Box data-testid="parametric-page">
      <PageHeader title={t(titleKey)} subtitle={t(descriptionKey)} avatar={<TuneOutlinedIcon />} />
      <Suspense fallback={<Skeleton variant="rounded" height={320} />}>{children}</Suspense>
    </Box>
  );
}
