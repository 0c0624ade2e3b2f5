import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  ACCOUNT_MASK_MAX,
  type Account,
  accountKinds,
  accountMaskError,
  accountRowSchema,
  accountSchema,
  type FinanceSettings,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useCan } from '../../lib/permissions.ts';
import { AccountsImport } from './AccountsImport.tsx';
import { ACCOUNTS_PATH } from './api.ts';
import { FinanceTable } from './FinanceTable.tsx';

/** The company's account mask, changed only when every code still fits (the server checks). */
function MaskEditor() {
  const { t } = useTranslation();
  const notify = useNotify();
  const can = useCan();
  const client = useQueryClient();
  const path = '/api/finance/settings';
  const settings = useQuery({
    queryKey: ['financeSettings', path],
    queryFn: () => api.get<FinanceSettings>(path),
  });
  const [mask, setMask] = useState('');
  useEffect(() => setMask(settings.data?.accountMask ?? ''), [settings.data]);
  const save = useMutation({
    mutationFn: () => api.put<FinanceSettings>(path, { accountMask: mask }),
    onSuccess: () => {
      notify(t('finance.accounts.maskSaved'), 'success');
      void client.invalidateQueries({ queryKey: ['financeSettings'] });
      void client.invalidateQueries({ queryKey: ['rowTable'] });
    },
    onError: (failure) => notify(errorMessage(t, failure), 'error'),
  });
  const error = mask ? accountMaskError(mask) : null;
  return (
    <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'flex-start' }}>
      <TextField
        label={t('finance.accounts.mask')}
        value={mask}
        onChange={(event) => setMask(event.target.value.toUpperCase())}
        size="small"
        error={Boolean(error)}
        helperText={error ? t(error) : t('finance.accounts.maskHint', { max: ACCOUNT_MASK_MAX })}
        slotProps={{ htmlInput: { maxLength: ACCOUNT_MASK_MAX + 5, 'data-testid': 'account-mask' } }}
        sx={{ width: 360 }}
        disabled={!can('finance:admin')}
      />
      {can('finance:admin') && (
        <Button
          variant="outlined"
          onClick={() => save.mutate()}
          disabled={Boolean(error) || !mask || mask === settings.data?.accountMask}
          loading={save.isPending}
          data-testid="account-mask-save"
        >
          {t('finance.accounts.maskSave')}
        </Button>
      )}
    </Stack>
  );
}

/** /finance/accounts: the accounting plan; the hierarchy follows the codes' prefixes (spec §5 mask). */
export default function AccountsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [version, setVersion] = useState(0);
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'code',
        label: t('finance.accounts.code'),
        type: 'text',
        required: true,
        maxLength: 30,
        width: 170,
      },
      {
        key: 'descr',
        label: t('finance.accounts.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 320,
      },
      {
        key: 'kind',
        label: t('finance.accounts.kind'),
        type: 'select',
        required: true,
        width: 140,
        options: accountKinds.map((value) => ({ value, label: t(`finance.accounts.kind_${value}`) })),
      },
      {
        key: 'aggregate',
        label: t('finance.accounts.aggregate'),
        type: 'select',
        required: true,
        width: 160,
        hint: t('finance.accounts.aggregateHint'),
        options: [0, 1].map((value) => ({ value, label: t(`finance.accounts.aggregate_${value}`) })),
      },
      { key: 'active', label: t('finance.accounts.active'), type: 'boolean', width: 90 },
    ],
    [t],
  );
  return (
    <FinanceTable<Account>
      key={version}
      path={ACCOUNTS_PATH}
      titleKey="finance.accounts.title"
      subtitleKey="finance.accounts.subtitle"
      icon={AccountTreeOutlinedIcon}
      testId="finance-accounts"
      columns={columns}
      itemSchema={accountSchema}
      rowSchema={accountRowSchema}
      newRow={() => ({ code: '', descr: '', kind: 1, aggregate: 0, active: true })}
      write="finance:write"
    >
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <MaskEditor />
        {can('finance:write') && <AccountsImport onImported={() => setVersion((v) => v + 1)} />}
      </Stack>
      <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
        {t('finance.accounts.hierarchyHint')}
      </Alert>
    </FinanceTable>
  );
}
