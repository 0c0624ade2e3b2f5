import './i18n/index.ts';
import CallMergeOutlinedIcon from '@mui/icons-material/CallMergeOutlined';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import { withCustomFields } from '@protocol/contracts';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCustomFieldDefinitions } from '../../components/CustomFields/index.ts';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import {
  TRADERS_CUSTOM_FIELDS_URL,
  TRADERS_LIST_META_KEY,
  TRADERS_META_URL,
  TRADERS_SEARCH_URL,
  traderLabel,
  tradersApi,
} from './api.ts';
import { MergeDialog } from './MergeDialog.tsx';
import { type TraderListItem, tradersCatalog } from './model.ts';

type TraderRow = TraderListItem & Record<string, unknown>;

/**
 * /traders: the traders list (spec §2), the DataTable over the traders catalog and the company's
 * custom fields of traders, and merging two.
 */
export default function TradersListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('traders.title');
  useAppBar({ title });
  const [selected, setSelected] = useState<TraderRow[]>([]);
  const [merging, setMerging] = useState<[number, number] | null>(null);
  const [reload, setReload] = useState(0);
  // The company's custom fields are columns `custom.<key>` (hidden until chosen); the table waits
  // for them so a saved view that shows one keeps it.
  const custom = useCustomFieldDefinitions(TRADERS_CUSTOM_FIELDS_URL);
  const catalog = useMemo(() => withCustomFields(tradersCatalog, custom.definitions), [custom.definitions]);

  const onCreate = useCallback(() => navigate(localize('/traders/create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: TraderRow) => navigate(localize(`/traders/${row.id}/edit`)),
    [navigate, localize],
  );
  const canMerge = can('traders:admin');
  const pair = selected.length === 2 ? ([selected[0]?.id, selected[1]?.id] as [number, number]) : null;

  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('traders.subtitle')}
        avatar={<StorefrontOutlinedIcon />}
        testId="traders-header"
        actions={
          canMerge && (
            <Tooltip title={pair ? '' : t('traders.merge.selectTwo')}>
              <span>
                <Button
                  variant="outlined"
                  startIcon={<CallMergeOutlinedIcon />}
                  disabled={!pair}
                  onClick={() => pair && setMerging(pair)}
                  data-testid="merge-open"
                >
                  {t('traders.merge.open')}
                </Button>
              </span>
            </Tooltip>
          )
        }
      />
      {custom.loading ? (
        <Skeleton variant="rounded" height={420} />
      ) : (
        <DataTable<TraderRow>
          key={reload}
          catalog={catalog}
          searchUrl={TRADERS_SEARCH_URL}
          metaUrl={TRADERS_META_URL}
          metaKey={TRADERS_LIST_META_KEY}
          title={title}
          onCreate={can('traders:write') ? onCreate : undefined}
          onRowClick={onRowClick}
          onDelete={can('traders:admin') ? tradersApi.deleteMany : undefined}
          rowLabel={traderLabel}
          rowSecondary={(row) => row.vatnumber ?? ''}
          onSelectionChange={setSelected}
        />
      )}
      {merging && (
        <MergeDialog
          open
          ids={merging}
          onClose={() => setMerging(null)}
          onMerged={() => {
            setMerging(null);
            setSelected([]);
            setReload((value) => value + 1);
          }}
        />
      )}
    </>
  );
}
