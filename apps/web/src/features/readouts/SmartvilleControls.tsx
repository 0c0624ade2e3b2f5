import CloudDownloadOutlinedIcon from '@mui/icons-material/CloudDownloadOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SmartvilleSettings } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { notify } from '../../lib/notifier.ts';
import { useCan } from '../../lib/permissions.ts';
import type { PeriodKey } from './readoutsApi.ts';

/** Smart meters (source 2): the company's smartville connection (admins) and «pull now» as a job. */
export function SmartvilleControls({
  periodKey,
  months,
  busy,
  onStarted,
}: {
  periodKey: PeriodKey;
  months: number;
  busy: boolean;
  onStarted: (jobId: number) => void;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const settings = useQuery({
    queryKey: ['readouts', 'smartville'],
    queryFn: ({ signal }) => api.get<SmartvilleSettings>('/api/readouts/smartville', { signal }),
  });
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (settings.data?.url) setUrl(settings.data.url);
  }, [settings.data?.url]);

  const save = async () => {
    setSaving(true);
    try {
      await api.put('/api/readouts/smartville', { url, apiKey: apiKey || null });
      setApiKey('');
      notify(t('readoutsUi.smartville.saved'), 'success');
      void settings.refetch();
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    } finally {
      setSaving(false);
    }
  };
  const pull = async () => {
    try {
      const { jobId } = await api.post<{ jobId: number }>('/api/readouts/smartville/pull', {
        year: periodKey.year,
        period: periodKey.period,
        months,
      });
      onStarted(jobId);
    } catch (error) {
      notify(errorMessage(t, error), 'error');
    }
  };

  return (
    <Stack spacing={2} sx={{ flex: 1 }}>
      {can('readouts:admin') && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextField
            size="small"
            label={t('readoutsUi.smartville.url')}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            sx={{ minWidth: 280 }}
            slotProps={{ htmlInput: { 'data-testid': 'smartville-url' } }}
          />
          <TextField
            size="small"
            type="password"
            autoComplete="off"
            label={t('readoutsUi.smartville.key')}
            placeholder={settings.data?.hasKey ? t('readoutsUi.smartville.keyKept') : ''}
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            sx={{ minWidth: 220 }}
            slotProps={{
              htmlInput: { 'data-testid': 'smartville-key' },
              inputLabel: settings.data?.hasKey ? { shrink: true } : undefined,
            }}
          />
          <Button
            variant="outlined"
            disabled={saving || !url}
            onClick={() => void save()}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0, alignSelf: 'flex-start' }}
          >
            {t('readoutsUi.smartville.save')}
          </Button>
        </Stack>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', alignSelf: 'flex-start' }}>
        <Button
          variant="contained"
          startIcon={<CloudDownloadOutlinedIcon />}
          disabled={busy || !settings.data?.hasKey}
          onClick={() => void pull()}
          data-testid="smartville-pull"
        >
          {t('readoutsUi.smartville.pull')}
        </Button>
        {settings.data && !settings.data.hasKey && (
          <Typography variant="body2" color="text.secondary">
            {t('readoutsUi.smartville.notConfigured')}
          </Typography>
        )}
      </Stack>
    </Stack>
  );
}
