import './i18n/index.ts';
import RefreshIcon from '@mui/icons-material/Refresh';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import {
  type Consumer,
  consumerStatuses,
  type EncodingCodeDefinition,
  writtenCode,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCustomFieldDefinitions } from '../../components/CustomFields/index.ts';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type PageAction, useAppBar } from '../../lib/appBarContext.tsx';
import { consumerTabs, useFeatures } from '../../lib/feature.ts';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { ConsumerForm } from './ConsumerForm.tsx';
import { MetersTab, TransactionsTab } from './ConsumerTabs.tsx';
import {
  CONSUMERS_CUSTOM_FIELDS_URL,
  consumerKey,
  consumersApi,
  useEncodingDefinition,
} from './consumersApi.ts';

// Pending is outlined rather than orange: white on the warning colour is too faint to read (axe).
const statusColor = { [consumerStatuses.active]: 'success' } as const;

/** Without a code definition no consumer can be registered: say so and point to it. */
function NoDefinition() {
  const { t } = useTranslation();
  const localize = useLocalize();
  return (
    <Alert severity="warning" data-testid="consumer-no-definition">
      {t('waterUi.encoding.notDefined')}{' '}
      <Link component={RouterLink} to={localize('/water/encoding_code')}>
        {t('waterUi.encoding.title')}
      </Link>
    </Alert>
  );
}

function FormOrWait({
  consumer,
  definition,
}: {
  consumer?: Consumer;
  definition: ReturnType<typeof useEncodingDefinition>;
}) {
  const custom = useCustomFieldDefinitions(CONSUMERS_CUSTOM_FIELDS_URL);
  if (definition.isPending || custom.loading) return <Skeleton variant="rounded" height={420} />;
  if (!definition.data) return <NoDefinition />;
  return (
    <ConsumerForm
      consumer={consumer}
      definition={definition.data as EncodingCodeDefinition}
      customFields={custom.definitions}
    />
  );
}

function CreateConsumer() {
  const { t } = useTranslation();
  const can = useCan();
  const definition = useEncodingDefinition();
  useAppBar({ title: t('waterUi.consumer.createTitle') });
  if (!can('consumers:write')) return <ForbiddenPage />;
  return (
    <Box data-testid="consumer-page">
      <PageHeader
        title={t('waterUi.consumer.createTitle')}
        subtitle={t('waterUi.consumer.createSubtitle')}
        avatar={<WaterDropOutlinedIcon />}
      />
      <FormOrWait definition={definition} />
    </Box>
  );
}

/** The consumer's card: a header with code, owner, address and status; tabs for details, meters and the timeline. */
function ConsumerCard({ id }: { id: number }) {
  const { t } = useTranslation();
  const definition = useEncodingDefinition();
  const query = useQuery({
    queryKey: consumerKey(id),
    queryFn: ({ signal }) => consumersApi.get(id, signal),
  });
  const actions = useMemo<PageAction[]>(
    () => [
      {
        key: 'refresh',
        label: t('common.refresh'),
        icon: <RefreshIcon fontSize="small" />,
        onClick: () => void query.refetch(),
        testId: 'consumer-refresh',
      },
    ],
    [t, query.refetch],
  );
  useAppBar({ title: t('water.consumers.title'), actions });
  const [tab, setTab] = useState('details');
  const can = useCan();
  // Tabs other features add (the readouts), each shown to who may see it.
  const features = useFeatures();
  const extraTabs = useMemo(
    () => consumerTabs(features).filter((extra) => can(extra.requires)),
    [features, can],
  );
  const tabs = useMemo(
    () => [
      ...['details', 'meters', 'transactions'].map((value) => ({
        value,
        label: t(`waterUi.consumer.tab_${value}`),
      })),
      ...extraTabs.map((extra) => ({ value: extra.key, label: t(extra.label) })),
    ],
    [t, extraTabs],
  );
  const ExtraTab = extraTabs.find((extra) => extra.key === tab)?.component;
  const consumer = query.data;
  if (query.error || !consumer)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={420} />;
  return (
    <Box data-testid="consumer-page">
      <PageHeader
        title={consumer.owner?.fullname ?? writtenCode(consumer.code)}
        testId="consumer-header"
        subtitle={
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <Box
              component="code"
              data-testid="consumer-header-code"
              sx={{
                fontFamily: 'monospace',
                fontSize: 15,
                px: 1,
                borderRadius: 1,
                bgcolor: 'action.hover',
              }}
            >
              {writtenCode(consumer.code)}
            </Box>
            <span>· {consumer.supplyAddress}</span>
            <Chip
              size="small"
              color={statusColor[consumer.status as keyof typeof statusColor] ?? 'default'}
              variant={consumer.status === consumerStatuses.pending ? 'outlined' : 'filled'}
              label={t(`water.consumerStatus_${consumer.status}`)}
              data-testid="consumer-status-chip"
            />
          </Box>
        }
        avatar={<WaterDropOutlinedIcon />}
        audit={consumer}
        tabs={tabs}
        tab={tab}
        onTabChange={setTab}
      />
      {tab === 'details' && <FormOrWait consumer={consumer} definition={definition} />}
      {tab === 'meters' && <MetersTab consumerId={consumer.id} />}
      {tab === 'transactions' && <TransactionsTab consumerId={consumer.id} />}
      {ExtraTab && (
        <Suspense fallback={<Skeleton variant="rounded" height={240} />}>
          <ExtraTab consumerId={consumer.id} />
        </Suspense>
      )}
    </Box>
  );
}

/** /consumers/create and /consumers/{id}/edit. */
export default function ConsumerPage() {
  return (
    <RecordRoute param="id" create={<CreateConsumer />} edit={(id) => <ConsumerCard key={id} id={id} />} />
  );
}
