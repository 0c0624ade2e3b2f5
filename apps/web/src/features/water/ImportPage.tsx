import './i18n/index.ts';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ConsumerImportResult, consumerImportResultSchema } from '@protocol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ImportPanel } from '../../components/ImportPanel/ImportPanel.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { fetchFile, pageLanguage, saveBlob } from '../../lib/files.ts';
import { consumersKey } from './consumersApi.ts';

/** /consumers/import: moving a utility's register in, a dry run first, then the import. */
export default function ImportPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  useAppBar({ title: t('menu.water') });

  const download = async () => {
    try {
      const template = '/api/protocol/consumers/import/template';
      const response = await fetchFile(template, { headers: pageLanguage() });
      saveBlob(await response.blob(), t('waterUi.import.templateFile'));
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    }
  };

  const summary = (result: ConsumerImportResult) => {
    const ok = result.errors.length === 0;
    if (result.dryRun)
      return ok
        ? t('waterUi.import.dryRunClean', { rows: result.rows })
        : t('waterUi.import.dryRunErrors', { count: result.errors.length, rows: result.rows });
    return ok
      ? t('waterUi.import.done', { created: result.created, updated: result.updated })
      : t('waterUi.import.notImported', { count: result.errors.length });
  };

  return (
    <Box data-testid="import-page">
      <PageHeader
        title={t('waterUi.import.title')}
        subtitle={t('waterUi.import.subtitle')}
        avatar={<UploadFileOutlinedIcon />}
      />
      <Paper variant="outlined" sx={{ p: 3, mb: 3 }}>
        <Stack spacing={2}>
          <Typography>{t('waterUi.import.steps')}</Typography>
          <ImportPanel
            path="/api/protocol/consumers/import"
            accept=".xlsx,.csv"
            testId="import"
            schema={consumerImportResultSchema}
            summary={summary}
            onImported={() => void queryClient.invalidateQueries({ queryKey: consumersKey })}
            extra={
              <Button
                variant="outlined"
                startIcon={<DownloadOutlinedIcon />}
                onClick={download}
                data-testid="import-template"
              >
                {t('waterUi.import.template')}
              </Button>
            }
            details={(result) => (
              <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
                <Chip label={t('waterUi.import.created', { n: result.created })} />
                <Chip label={t('waterUi.import.updated', { n: result.updated })} />
                <Chip label={t('waterUi.import.tradersCreated', { n: result.tradersCreated })} />
                <Chip label={t('waterUi.import.metersInstalled', { n: result.metersInstalled })} />
              </Stack>
            )}
          />
        </Stack>
      </Paper>
    </Box>
  );
}
