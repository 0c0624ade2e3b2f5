import './i18n/index.ts';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useCustomFieldDefinitions } from '../../components/CustomFields/index.ts';
import { useFastSwitch } from '../../components/DataTable/FastSwitch.tsx';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { initials, PageHeader } from '../../components/PageHeader.tsx';
import { refreshAction } from '../../components/refreshAction.tsx';
import { type PageAction, useAppBar } from '../../lib/appBarContext.tsx';
import { useCan } from '../../lib/permissions.ts';
import { TRADERS_CUSTOM_FIELDS_URL, TRADERS_SEARCH_URL, traderKey, traderLabel, tradersApi } from './api.ts';
import { type TraderDuplicate, tradersCatalog } from './model.ts';
import { DuplicateWarning, type LocationState, TraderForm } from './TraderForm.tsx';

function CreateTrader() {
  const { t } = useTranslation();
  const can = useCan();
  const custom = useCustomFieldDefinitions(TRADERS_CUSTOM_FIELDS_URL);
  useAppBar({ title: t('traders.form.createTitle') });
  if (!can('traders:write')) return <ForbiddenPage />;
  return (
    <Box data-testid="trader-page">
      <PageHeader
        title={t('traders.form.createTitle')}
        subtitle={t('traders.form.createSubtitle')}
        avatar={<StorefrontOutlinedIcon />}
      />
      {custom.loading ? (
        <Skeleton variant="rounded" height={320} />
      ) : (
        <TraderForm customFields={custom.definitions} />
      )}
    </Box>
  );
}

function EditTrader({ id }: { id: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const custom = useCustomFieldDefinitions(TRADERS_CUSTOM_FIELDS_URL);
  const [saved, setDuplicates] = useState<TraderDuplicate[] | null>(
    () => (location.state as LocationState | null)?.duplicates ?? null,
  );
  const query = useQuery({ queryKey: traderKey(id), queryFn: ({ signal }) => tradersApi.get(id, signal) });
  const trader = query.data;
  useFastSwitch({
    entity: 'traders',
    catalog: tradersCatalog,
    editPath: (traderId) => `/traders/${traderId}/edit`,
    searchUrl: TRADERS_SEARCH_URL,
  });
  const actions = useMemo<PageAction[]>(
    () => [refreshAction(t, () => void query.refetch(), 'trader-refresh')],
    [t, query.refetch],
  );
  useAppBar({ title: t('traders.form.editTitle'), actions });

  if (query.error || !trader || custom.loading)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={320} />;
  const name = traderLabel(trader);
  return (
    <Box data-testid="trader-page">
      <PageHeader
        title={name}
        subtitle={
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            {trader.vatnumber && (
              <span>
                {t('traders.field.vatnumber')}: {trader.vatnumber}
              </span>
            )}
            {trader.tradercode && <span>· {trader.tradercode}</span>}
            <Chip
              size="small"
              variant="outlined"
              label={trader.individual ? t('traders.form.individual') : t('traders.form.legalEntity')}
            />
            <Chip
              size="small"
              label={t(`traders.status.${trader.status}`)}
              data-testid="trader-status-chip"
            />
            {!trader.active && <Chip size="small" color="warning" label={t('traders.form.inactive')} />}
          </Box>
        }
        avatar={initials(trader.firstname ?? trader.fullname, trader.lastname, name)}
        audit={trader}
      />
      <DuplicateWarning duplicates={saved ?? trader.duplicates ?? []} />
      <TraderForm trader={trader} customFields={custom.definitions} onDuplicates={setDuplicates} />
    </Box>
  );
}

/** /traders/create and /traders/{traderId}/edit (spec §2, §3 Trader). */
export default function TraderEditPage() {
  return (
    <RecordRoute param="traderId" create={<CreateTrader />} edit={(id) => <EditTrader key={id} id={id} />} />
  );
}
