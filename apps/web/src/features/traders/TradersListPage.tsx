import './i18n/index.ts';
import CallMergeOutlinedIcon from '@mui/icons-material/CallMergeOutlined';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCompanyPath } from '../../app/company.tsx';
import { useLocalize } from '../../app/language.tsx';
import { useCan } from '../../app/permissions.ts';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import {
  TRADERS_LIST_META_KEY,
  TRADERS_META_URL,
  TRADERS_SEARCH_URL,
  traderLabel,
  tradersApi,
} from './api.ts';
import { MergeDialog } from './MergeDialog.tsx';
import { type TraderListItem, tradersCatalog } from './model.ts';

type TraderRow = TraderListItem & Record<string, unknown>;

/** /traders: the traders list (spec §2), the DataTable over the traders catalog, and merging two. */
export default function TradersListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const searchUrl = useCompanyPath(TRADERS_SEARCH_URL);
  const title = t('traders.title');
  useAppBar({ title });
  const [selected, setSelected] = useState<TraderRow[]>([]);
  const [merging, setMerging] = useState<[number, number] | null>(null);
  const [reload, setReload] = useState(0);

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
      <DataTable<TraderRow>
        key={reload}
        catalog={tradersCatalog}
        searchUrl={searchUrl}
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
