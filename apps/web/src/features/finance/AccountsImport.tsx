import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_IMPORT_MAX_BYTES,
  type AccountImportResult,
  accountImportResultSchema,
  XLSX_CONTENT_TYPE,
} from '@protocol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportPanel } from '../../components/ImportPanel/ImportPanel.tsx';

/**
 * The accounting plan from Excel (code, description, kind, aggregate) on the platform's import panel:
 * a dry run first, listing every bad row, then the import of a clean file, with progress.
 */
export function AccountsImport({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const [imported, setImported] = useState(false);

  // Closing after an import that wrote the plan restarts the table from the refetched plan (the table
  // keeps its own drafts); the dialog stayed open until then to show the report.
  const close = async () => {
    if (imported) {
      await client.invalidateQueries({ queryKey: ['rowTable'] });
      onImported();
    }
    setOpen(false);
    setImported(false);
  };

  const summary = (result: AccountImportResult) => {
    const ok = result.errors.length === 0;
    if (result.dryRun)
      return ok
        ? t('finance.accounts.importClean', { rows: result.rows })
        : t('finance.accounts.importErrors', { count: result.errors.length, rows: result.rows });
    return ok
      ? t('finance.accounts.imported', result)
      : t('finance.accounts.notImported', { count: result.errors.length });
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<UploadFileOutlinedIcon />}
        onClick={() => setOpen(true)}
        data-testid="accounts-import"
      >
        {t('finance.accounts.import')}
      </Button>
      <Dialog open={open} onClose={running ? undefined : close} maxWidth="md" fullWidth>
        <DialogTitle>{t('finance.accounts.importTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} data-testid="accounts-import-dialog">
            <Typography>{t('finance.accounts.importSteps')}</Typography>
            <ImportPanel
              path="/api/finance/accounts/import"
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              bodyType={XLSX_CONTENT_TYPE}
              maxBytes={ACCOUNT_IMPORT_MAX_BYTES}
              tooBig={t('finance.accounts.importTooBig')}
              testId="accounts-import"
              schema={accountImportResultSchema}
              summary={summary}
              onRunning={setRunning}
              onImported={(result) => setImported(result.applied > 0)}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={running}>
            {t('finance.accounts.importClose')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
