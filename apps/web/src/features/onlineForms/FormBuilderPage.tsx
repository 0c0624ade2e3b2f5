import './i18n/index.ts';
import DesktopWindowsOutlinedIcon from '@mui/icons-material/DesktopWindowsOutlined';
import DynamicFormOutlinedIcon from '@mui/icons-material/DynamicFormOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import SmartphoneOutlinedIcon from '@mui/icons-material/SmartphoneOutlined';
import Alert from '@mui/material/Alert';
import Backdrop from '@mui/material/Backdrop';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  type FieldError,
  type FormStructure,
  type OnlineForm,
  type OnlineFormListItem,
  type Page,
  type ProtocolBook,
  parseStructure,
  type SubmissionValues,
  validateSubmission,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import i18n from 'i18next';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { loadEnglish } from '../../i18n/index.ts';
import { api, isApiError } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { FORMS_SEARCH_URL, formsApi } from './api.ts';
import { BuilderCanvas } from './builder/BuilderCanvas.tsx';
import { FormSettings, type FormSettingsValue } from './builder/FormSettings.tsx';
import { type FieldErrors, FormRenderer } from './FormRenderer.tsx';

type Tab = 'design' | 'settings' | 'preview';

/**
 * /online_forms/create and /online_forms/{id}/edit (spec §2 builder, §4): the rows and elements,
 * the settings and a live preview in the form's language and a phone frame. A field name used twice
 * is refused before saving (dynamicForms.item_already_exists); every save shows an overlay and the
 * created/updated snackbar; a new form then goes to its edit route, a saved one reloads.
 */
export default function FormBuilderPage() {
  const { formId } = useParams();
  const id: number | 'createDraft' = formId && /^\d+$/.test(formId) ? Number(formId) : 'createDraft';
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const notify = useNotify();
  const can = useCan();
  const loaded = useQuery({
    queryKey: ['onlineForms', 'form', id],
    queryFn: ({ signal }) => formsApi.get(id, signal),
    // A draft's generated form_id must not change under the user.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const books = useQuery({
    queryKey: ['parametrics', 'book'],
    queryFn: ({ signal }) => api.get<ProtocolBook[]>('/api/parametrics/book', { signal }),
  });
  const operators = useQuery({
    queryKey: ['onlineForms', 'assignees'],
    queryFn: ({ signal }) =>
      api.get<{ id: number; name: string }[]>('/api/onlineForms/assignees', {
        signal,
      }),
  });

  const forms = useQuery({
    queryKey: ['onlineForms', 'all'],
    queryFn: ({ signal }) =>
      api.get<Page<OnlineFormListItem>>(`${FORMS_SEARCH_URL}?itemsPerPage=99999`, {
        signal,
      }),
  });
  const [settings, setSettings] = useState<FormSettingsValue | null>(null);
  const [structure, setStructure] = useState<FormStructure>([]);
  const [tab, setTab] = useState<Tab>('design');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const form = loaded.data;
    if (!form) return;
    const { api: text, audit: _audit, version: _version, ...rest } = form;
    setSettings(rest);
    const parsed = parseStructure(text);
    setStructure(parsed.ok ? parsed.structure : []);
    setErrors([]);
  }, [loaded.data]);

  const title = id === 'createDraft' ? t('onlineForms.createTitle') : t('onlineForms.editTitle');
  useAppBar({ title });

  if (loaded.isPending || !settings) return <Skeleton variant="rounded" height={480} />;
  if (!loaded.data) return <Alert severity="error">{t('error.not_found')}</Alert>;
  const form: OnlineForm = loaded.data;

  const save = async () => {
    const api = JSON.stringify(structure);
    const parsed = parseStructure(api);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setTab('design');
      notify(t('onlineForms.builder.fixErrors'), 'error');
      return;
    }
    setErrors([]);
    setSaving(true);
    try {
      const savedId = await formsApi.save({ ...settings, api });
      const created = settings.id === null;
      notify(
        t(created ? 'message.created_successfully.singular' : 'message.updated_successfully.singular', {
          entity: t('onlineForms.entity'),
        }),
        'success',
      );
      if (created) navigate(localize(`/online_forms/${savedId}/edit`), { replace: true });
      else await loaded.refetch();
    } catch (error) {
      if (isApiError(error)) {
        setErrors(error.fieldErrors);
        if (error.fieldErrors.some((e) => e.field.startsWith('rows'))) setTab('design');
        else if (error.fieldErrors.length > 0) setTab('settings');
        notify(t(error.key, error.params), 'error');
      } else console.error(error);
    } finally {
      setSaving(false);
    }
  };

  const structureErrors = errors.filter((e) => e.field.startsWith('rows') || e.field === 'api');
  const publicPath = `${settings.language === 1 ? '/en' : ''}/forms/${settings.form_id}`;
  return (
    <Box sx={{ position: 'relative' }}>
      <PageHeader
        title={settings.title || title}
        subtitle={
          form.version > 0 ? (
            <>
              {t('onlineForms.settings.version', { version: form.version })} ·{' '}
              <Link href={publicPath} target="_blank" rel="noopener" data-testid="builder-public-link">
                {publicPath} <OpenInNewIcon fontSize="inherit" sx={{ verticalAlign: 'middle' }} />
              </Link>
            </>
          ) : (
            settings.form_id
          )
        }
        avatar={<DynamicFormOutlinedIcon />}
        tabs={(['design', 'settings', 'preview'] as Tab[]).map((value) => ({
          value,
          label: t(`onlineForms.tabs.${value}`),
        }))}
        tab={tab}
        onTabChange={(value) => setTab(value as Tab)}
        audit={form.audit ?? undefined}
        testId="builder-header"
        actions={
          <Stack direction="row" spacing={1}>
            {form.id !== null && (
              <Button
                variant="outlined"
                startIcon={<InboxOutlinedIcon />}
                onClick={() => navigate(localize(`/online_forms/submissions?formId=${form.id}`))}
              >
                {t('onlineForms.submissions.showSubmissions')}
              </Button>
            )}
            {can('forms:write') && (
              <Button
                variant="contained"
                onClick={() => void save()}
                loading={saving}
                data-testid="builder-save"
              >
                {t('onlineForms.submissions.save')}
              </Button>
            )}
          </Stack>
        }
      />
      {structureErrors.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="builder-errors">
          {[...new Set(structureErrors.map((e) => t(e.key, e.params)))].map((message) => (
            <div key={message}>{message}</div>
          ))}
        </Alert>
      )}
      {tab === 'design' && (
        <BuilderCanvas
          structure={structure}
          errorPaths={new Set(structureErrors.map((e) => e.field.split('.').slice(0, 4).join('.')))}
          onChange={(next) => {
            setStructure(next);
            // The structure's errors belong to the structure that was saved; the settings' stay.
            setErrors((current) => current.filter((e) => !e.field.startsWith('rows')));
          }}
        />
      )}
      {tab === 'settings' && (
        <FormSettings
          value={settings}
          onChange={setSettings}
          errors={errors}
          books={(books.data ?? []).filter((b) => b.booktype.incoming && b.isActive)}
          operators={operators.data ?? []}
          forms={forms.data?.content ?? []}
        />
      )}
      {tab === 'preview' && <Preview structure={structure} settings={settings} />}
      <Backdrop
        open={saving}
        sx={{ position: 'absolute', zIndex: 5, bgcolor: 'rgba(255,255,255,0.4)' }}
        data-testid="builder-saving"
      >
        <CircularProgress aria-label={t('onlineForms.saving')} />
      </Backdrop>
    </Box>
  );
}

/** The form as the citizen will see it, in its language, on a phone or a desktop, with its checks. */
function Preview({ structure, settings }: { structure: FormStructure; settings: FormSettingsValue }) {
  const { t: pageT } = useTranslation();
  const [values, setValues] = useState<SubmissionValues>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [frame, setFrame] = useState<'phone' | 'desktop'>('phone');
  const lang = settings.language === 1 ? 'en' : 'el';
  const [ready, setReady] = useState(lang === 'el');
  useEffect(() => {
    if (lang === 'en') void loadEnglish().then(() => setReady(true));
  }, [lang]);
  // English texts arrive with their chunk; until then the preview speaks Greek.
  const t = useMemo(() => i18n.getFixedT(ready ? lang : 'el'), [lang, ready]);
  const check = () => {
    const result = validateSubmission(structure, values);
    setErrors(Object.fromEntries(result.errors.map((e) => [e.field, { key: e.key, params: e.params }])));
  };
  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={frame}
          onChange={(_, value) => value && setFrame(value)}
        >
          <ToggleButton value="phone" aria-label={pageT('onlineForms.builder.phone')}>
            <SmartphoneOutlinedIcon fontSize="small" sx={{ mr: 0.5 }} /> {pageT('onlineForms.builder.phone')}
          </ToggleButton>
          <ToggleButton value="desktop" aria-label={pageT('onlineForms.builder.desktop')}>
            <DesktopWindowsOutlinedIcon fontSize="small" sx={{ mr: 0.5 }} />{' '}
            {pageT('onlineForms.builder.desktop')}
          </ToggleButton>
        </ToggleButtonGroup>
        <Typography variant="body2" color="text.secondary">
          {pageT('onlineForms.builder.previewLanguage', {
            language: pageT(`onlineForms.language.${settings.language}`),
          })}
        </Typography>
      </Stack>
      <Paper
        variant="outlined"
        data-testid="builder-preview"
        sx={
          frame === 'phone'
            ? {
                width: 390,
                maxWidth: '100%',
                minHeight: 640,
                borderRadius: 5,
                borderWidth: 10,
                borderColor: 'grey.800',
                p: 2,
                overflow: 'auto',
              }
            : { width: '100%', p: 3 }
        }
      >
        <Stack spacing={2}>
          <Typography component="h2" variant="h6" sx={{ fontWeight: 600 }}>
            {settings.title}
          </Typography>
          {settings.description && (
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
              {settings.description}
            </Typography>
          )}
          <FormRenderer
            structure={structure}
            values={values}
            onChange={setValues}
            errors={errors}
            t={t}
            narrow={frame === 'phone'}
            idPrefix="preview"
          />
          <Button variant="contained" onClick={check} data-testid="preview-submit">
            {t('onlineForms.public.submit')}
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
