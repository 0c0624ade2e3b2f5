import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  ACCOUNT_IMPORT_MAX_BYTES,
  ACCOUNT_MASK_MAX,
  type Account,
  type AccountImportResult,
  accountKinds,
  accountMaskError,
  accountRowSchema,
  accountSchema,
  type FieldError,
  type FinanceSettings,
  XLSX_CONTENT_TYPE,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyPath } from '../../app/company.tsx';
import { useCan } from '../../app/permissions.ts';
import { useNotify } from '../../components/Notifier.tsx';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { api, getToken } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { ACCOUNTS_PATH } from './api.ts';
import { FinanceTable } from './FinanceTable.tsx';

/** The company's account mask, changed only when every code still fits (the server checks). */
function MaskEditor() {
  const { t } = useTranslation();
  const notify = useNotify();
  const can = useCan();
  const client = useQueryClient();
  const path = useCompanyPath('/api/finance/settings');
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

/** Imports the accounting plan from an .xlsx (code, description, kind, aggregate), all or nothing. */
function ImportButton({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const client = useQueryClient();
  const path = useCompanyPath('/api/finance/accounts/import');
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const token = getToken();
      const response = await fetch(path, {
        method: 'POST',
        headers: {
          'content-type': XLSX_CONTENT_TYPE,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: file,
      });
      const body = await response.json();
      if (!response.ok) {
        const rows = (body.fieldErrors ?? []) as FieldError[];
        const first = rows[0];
        const message = String(
          first
            ? t('finance.accounts.importRowError', {
                row: first.field.split('.')[1],
                message: t(first.key, first.params),
              })
            : t(body.key ?? 'error.server', body.params ?? {}),
        );
        throw new Error(message);
      }
      return body as AccountImportResult;
    },
    onSuccess: async (result) => {
      notify(t('finance.accounts.imported', result), 'success');
      // The table keeps its own drafts: it starts again from the refetched plan.
      await client.invalidateQueries({ queryKey: ['rowTable'] });
      onImported();
    },
    onError: (failure) => notify(errorMessage(t, failure), 'error'),
  });
  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        data-testid="accounts-import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file && file.size > ACCOUNT_IMPORT_MAX_BYTES)
            notify(t('finance.accounts.importTooBig'), 'error');
          else if (file) upload.mutate(file);
          event.target.value = '';
        }}
      />
      <Button
        variant="outlined"
        startIcon={<UploadFileOutlinedIcon />}
        onClick={() => input.current?.click()}
        loading={upload.isPending}
        data-testid="accounts-import"
      >
        {t('finance.accounts.import')}
      </Button>
    </>
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
        {can('finance:write') && <ImportButton onImported={() => setVersion((v) => v + 1)} />}
      </Stack>
      <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
        {t('finance.accounts.hierarchyHint')}
      </Alert>
    </FinanceTable>
  );
}
