import './i18n/index.ts';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { type ConsumerListItem, consumersCatalog, withCustomFields, writtenCode } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCustomFieldDefinitions } from '../../components/CustomFields/index.ts';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import {
  CONSUMERS_CUSTOM_FIELDS_URL,
  CONSUMERS_LIST_META_KEY,
  CONSUMERS_META_URL,
  CONSUMERS_SEARCH_URL,
} from './consumersApi.ts';

type ConsumerRow = ConsumerListItem & Record<string, unknown>;

/** /consumers: the consumers list on the list engine (filters, sort, saved views, exports). */
export default function ConsumersListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('water.consumers.title');
  useAppBar({ title: t('menu.water') });
  const custom = useCustomFieldDefinitions(CONSUMERS_CUSTOM_FIELDS_URL);
  const catalog = useMemo(() => withCustomFields(consumersCatalog, custom.definitions), [custom.definitions]);
  const onCreate = useCallback(() => navigate(localize('/consumers/create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: ConsumerRow) => navigate(localize(`/consumers/${row.id}/edit`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('waterUi.consumer.listSubtitle')}
        avatar={<WaterDropOutlinedIcon />}
        testId="consumers-header"
        actions={
          can('consumers:write') && (
            <Button
              variant="outlined"
              startIcon={<UploadFileOutlinedIcon />}
              onClick={() => navigate(localize('/consumers/import'))}
              data-testid="consumers-import"
            >
              {t('waterUi.import.title')}
            </Button>
          )
        }
      />
      {custom.loading ? (
        <Skeleton variant="rounded" height={420} />
      ) : (
        <DataTable<ConsumerRow>
          catalog={catalog}
          searchUrl={CONSUMERS_SEARCH_URL}
          metaUrl={CONSUMERS_META_URL}
          metaKey={CONSUMERS_LIST_META_KEY}
          title={title}
          onCreate={can('consumers:write') ? onCreate : undefined}
          onRowClick={onRowClick}
          rowLabel={(row) => writtenCode(row.code)}
          rowSecondary={(row) => row.ownerName ?? ''}
        />
      )}
    </>
  );
}
