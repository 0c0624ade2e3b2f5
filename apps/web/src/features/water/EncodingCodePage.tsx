import './i18n/index.ts';
import PinOutlinedIcon from '@mui/icons-material/PinOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type CustomField,
  ENCODING_MAX_LEVEL_LENGTH,
  ENCODING_MAX_LEVELS,
  type EncodingCodeDefinition,
  encodingCodeDefinitionSchema,
  encodingLevelTypeIds,
  encodingLevelTypes,
  encodingMask,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';
import { usePermission } from '../../lib/permissions.ts';

interface LevelDraft {
  length: string;
  type: string;
  cfieldid: string;
}
interface Draft {
  levels: number;
  rows: LevelDraft[];
  separator: string;
}

const LEVEL_COUNTS = Array.from({ length: ENCODING_MAX_LEVELS }, (_, i) => i + 1);
const emptyLevel: LevelDraft = { length: '', type: '', cfieldid: '' };

function toDraft(def: EncodingCodeDefinition | null): Draft {
  if (!def) {
    return {
      levels: 3,
      rows: [
        { length: '2', type: String(encodingLevelTypes.sector), cfieldid: '' },
        { length: '3', type: String(encodingLevelTypes.route), cfieldid: '' },
        { length: '5', type: '', cfieldid: '' },
        emptyLevel,
        emptyLevel,
      ],
      separator: '-',
    };
  }
  const flat = def as unknown as Record<string, number | null>;
  const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    levels: def.levels,
    rows: [1, 2, 3, 4, 5].map((n) => ({
      length: text(flat[`level${n}`]),
      type: text(flat[`leveltable${n}`]),
      cfieldid: text(flat[`cfieldid${n}`]),
    })),
    separator: def.separator,
  };
}

function toBody(draft: Draft): Record<string, unknown> {
  const body: Record<string, unknown> = { levels: draft.levels, separator: draft.separator };
  const num = (v: string) => (v.trim() === '' ? null : Number(v));
  draft.rows.forEach((row, i) => {
    const n = i + 1;
    const used = n <= draft.levels;
    const typed = n < draft.levels;
    body[`level${n}`] = used ? num(row.length) : null;
    body[`leveltable${n}`] = typed ? num(row.type) : null;
    body[`cfieldid${n}`] =
      typed && row.type === String(encodingLevelTypes.customField) ? num(row.cfieldid) : null;
  });
  return body;
}

/** /water/encoding_code: the consumer encoding code definition (spec §3): levels, lengths, types, separator. */
export default function EncodingCodePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const notify = useNotify();
  const writable = usePermission('settings:write');
  useAppBar({ title: t('menu.water') });
  const path = '/api/protocol/parametrics/encoding_code';
  const fieldsPath = '/api/settings/custom_fields';
  const definition = useQuery({
    queryKey: ['water', 'encoding_code', path],
    queryFn: ({ signal }) => api.get<EncodingCodeDefinition | null>(path, { signal }),
  });
  const fields = useQuery({
    queryKey: ['water', 'custom_fields', fieldsPath],
    queryFn: ({ signal }) => api.get<CustomField[]>(fieldsPath, { signal }),
    enabled: usePermission('settings:read'),
  });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (definition.data !== undefined) setDraft(toDraft(definition.data));
  }, [definition.data]);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api.put<EncodingCodeDefinition>(path, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(['water', 'encoding_code', path], saved);
      setErrors({});
      notify(t('waterUi.encoding.saved'), 'success');
    },
    onError: (error) => {
      if (isApiError(error) && error.fieldErrors.length > 0) {
        setErrors(Object.fromEntries(error.fieldErrors.map((e) => [e.field, t(e.key, e.params)])));
      }
      notify(errorMessage(t, error), 'error');
    },
  });

  if (definition.isError) return <RetryAlert error={definition.error} onRetry={() => definition.refetch()} />;
  if (!draft) return <Skeleton variant="rounded" height={320} />;

  const body = toBody(draft);
  const parsed = encodingCodeDefinitionSchema.safeParse(body);
  const localErrors: Record<string, string> = parsed.success
    ? {}
    : Object.fromEntries(
        parsed.error.issues.map((issue) => [
          issue.path.join('.'),
          issue.message.startsWith('validation.') ? t(issue.message) : t('validation.invalid'),
        ]),
      );
  const shownErrors = { ...localErrors, ...errors };
  const consumerFields = (fields.data ?? []).filter((f) => f.entity === 'consumers');
  const setRow = (index: number, patch: Partial<LevelDraft>) =>
    setDraft({ ...draft, rows: draft.rows.map((row, i) => (i === index ? { ...row, ...patch } : row)) });
  const mask = parsed.success ? encodingMask(parsed.data) : '';

  return (
    <Box data-testid="encoding-code-page">
      <PageHeader
        title={t('waterUi.encoding.title')}
        subtitle={t('waterUi.encoding.subtitle')}
        avatar={<PinOutlinedIcon />}
      />
      {definition.data === null && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('waterUi.encoding.notDefined')}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 880 }}>
        <Stack direction="row" spacing={2} sx={{ mb: 3 }}>
          <TextField
            select
            label={t('waterUi.encoding.levels')}
            value={draft.levels}
            disabled={!writable}
            onChange={(e) => setDraft({ ...draft, levels: Number(e.target.value) })}
            sx={{ width: 180 }}
            slotProps={{ htmlInput: { 'data-testid': 'encoding-levels' } }}
          >
            {LEVEL_COUNTS.map((count) => (
              <MenuItem key={count} value={count}>
                {count}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('waterUi.encoding.separator')}
            value={draft.separator}
            disabled={!writable}
            onChange={(e) => setDraft({ ...draft, separator: e.target.value })}
            error={Boolean(shownErrors.separator)}
            helperText={shownErrors.separator ?? t('waterUi.encoding.separatorHint')}
            sx={{ width: 260 }}
            slotProps={{ htmlInput: { maxLength: 3, 'data-testid': 'encoding-separator' } }}
          />
        </Stack>
        {draft.rows.slice(0, draft.levels).map((row, i) => {
          const n = i + 1;
          const last = n === draft.levels;
          return (
            <Stack key={n} direction="row" spacing={2} sx={{ mb: 2, alignItems: 'flex-start' }}>
              <Typography sx={{ width: 90, pt: 2, fontWeight: 500 }}>
                {t('waterUi.encoding.level', { n })}
              </Typography>
              <TextField
                label={t('waterUi.encoding.length')}
                value={row.length}
                disabled={!writable}
                onChange={(e) => setRow(i, { length: e.target.value.replace(/\D/g, '') })}
                error={Boolean(shownErrors[`level${n}`])}
                helperText={shownErrors[`level${n}`] ?? ' '}
                sx={{ width: 120 }}
                slotProps={{
                  htmlInput: {
                    inputMode: 'numeric',
                    max: ENCODING_MAX_LEVEL_LENGTH,
                    'data-testid': `encoding-length-${n}`,
                  },
                }}
              />
              {last ? (
                <Typography color="text.secondary" sx={{ pt: 2 }}>
                  {t('waterUi.encoding.lastLevel')}
                </Typography>
              ) : (
                <TextField
                  select
                  label={t('waterUi.encoding.type')}
                  value={row.type}
                  disabled={!writable}
                  onChange={(e) => setRow(i, { type: e.target.value })}
                  error={Boolean(shownErrors[`leveltable${n}`])}
                  helperText={shownErrors[`leveltable${n}`] ?? ' '}
                  sx={{ width: 240 }}
                  slotProps={{ htmlInput: { 'data-testid': `encoding-type-${n}` } }}
                >
                  {encodingLevelTypeIds.map((id) => (
                    <MenuItem key={id} value={String(id)}>
                      {t(`waterUi.levelType_${id}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {!last && row.type === String(encodingLevelTypes.customField) && (
                <TextField
                  select
                  label={t('waterUi.encoding.customField')}
                  value={row.cfieldid}
                  disabled={!writable}
                  onChange={(e) => setRow(i, { cfieldid: e.target.value })}
                  error={Boolean(shownErrors[`cfieldid${n}`])}
                  helperText={shownErrors[`cfieldid${n}`] ?? ' '}
                  sx={{ width: 240 }}
                >
                  {consumerFields.map((f) => (
                    <MenuItem key={f.id} value={String(f.id)}>
                      {lang === 'en' ? f.labelEn || f.labelEl : f.labelEl}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            </Stack>
          );
        })}
        <Stack direction="row" spacing={2} sx={{ mt: 1, alignItems: 'center' }}>
          <Typography color="text.secondary">{t('waterUi.encoding.mask')}</Typography>
          <Box
            component="code"
            data-testid="encoding-mask"
            sx={{
              fontFamily: 'monospace',
              fontSize: 18,
              px: 1.5,
              py: 0.5,
              bgcolor: 'action.hover',
              borderRadius: 1,
              whiteSpace: 'pre',
            }}
          >
            {mask || '—'}
          </Box>
          <Box sx={{ flex: 1 }} />
          {writable && (
            <Button
              variant="contained"
              disabled={!parsed.success || save.isPending}
              onClick={() => save.mutate(body)}
              data-testid="encoding-save"
            >
              {t('common.save')}
            </Button>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
