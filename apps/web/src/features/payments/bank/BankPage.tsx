import '../i18n/index.ts';
import './i18n/index.ts';
import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useAppBar } from '../../../lib/appBarContext.tsx';
import { BankImportPanel } from './BankImportPanel.tsx';
import { BankLayoutsPanel } from './BankLayoutsPanel.tsx';
import { BankUnmatchedPanel } from './BankUnmatchedPanel.tsx';

const TABS = ['import', 'unmatched', 'layouts'] as const;
type Tab = (typeof TABS)[number];

/** /payments/bank: import a bank's payments file, the lines waiting to be matched, the layouts. */
export default function BankPage() {
  const { t } = useTranslation();
  const title = t('bankUi.title');
  useAppBar({ title });
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : 'import';
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('bankUi.subtitle')}
        avatar={<AccountBalanceOutlinedIcon />}
        tabs={TABS.map((value) => ({ value, label: t(`bankUi.tab.${value}`) }))}
        tab={tab}
        onTabChange={(value) => setParams(value === 'import' ? {} : { tab: value }, { replace: true })}
        testId="bank-header"
      />
      {tab === 'import' && <BankImportPanel />}
      {tab === 'unmatched' && <BankUnmatchedPanel />}
      {tab === 'layouts' && <BankLayoutsPanel />}
    </>
  );
}
