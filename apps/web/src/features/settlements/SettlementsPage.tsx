import './i18n/index.ts';
import HandshakeOutlinedIcon from '@mui/icons-material/HandshakeOutlined';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import Button from '@mui/material/Button';
import { type SettlementListItem, settlementsCatalog, writtenCode } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { SETTLEMENTS_META_KEY, SETTLEMENTS_SEARCH_URL } from './api.ts';

type Row = SettlementListItem & Record<string, unknown>;

/** /settlements: every settlement on the list engine (status, date, consumer, amount; exports). */
export default function SettlementsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const title = t('settlements.list.title');
  useAppBar({ title: t('menu.water') });
  const onRowClick = useCallback(
    (row: Row) => navigate(localize(`/settlements/${row.id}`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('settlementsUi.list.subtitle')}
        avatar={<HandshakeOutlinedIcon />}
        testId="settlements-header"
        actions={
          <Button
            variant="outlined"
            startIcon={<TuneOutlinedIcon />}
            onClick={() => navigate(localize('/settlements/categories'))}
            data-testid="settlement-categories"
          >
            {t('settlements.categories.title')}
          </Button>
        }
      />
      <DataTable<Row>
        catalog={settlementsCatalog}
        searchUrl={SETTLEMENTS_SEARCH_URL}
        metaUrl="/api/users/meta"
        metaKey={SETTLEMENTS_META_KEY}
        title={title}
        onRowClick={onRowClick}
        rowLabel={(row) => `${row.number} · ${writtenCode(row.consumerCode)}`}
        rowSecondary={(row) => row.consumerName ?? ''}
      />
    </>
  );
}
