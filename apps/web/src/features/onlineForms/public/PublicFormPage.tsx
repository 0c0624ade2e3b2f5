import '../i18n/index.ts';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type FormStructure,
  formatMoney,
  type PublicForm,
  type PublicSubmitResult,
  parseStructure,
  type SubmissionValues,
  validateSubmission,
} from '@protocol/contracts';
import i18n, { type TFunction } from 'i18next';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { BrandMark } from '../../../components/BrandMark.tsx';
import { loadEnglish } from '../../../i18n/index.ts';
import { isApiError } from '../../../lib/api.ts';
import { useLang } from '../../../lib/language.tsx';
import { publicFormsApi } from '../api.ts';
import { type FieldErrors, FormRenderer } from '../FormRenderer.tsx';

/**
 * /forms/{form_id} (and /en/forms/…): a published form as a citizen fills it in, without signing in.
 * Outside the signed-in shell and its own chunk. Checks with the contracts' rules before sending;
 * the server checks again with the same ones. A draft is kept behind a private link (?draft=…).
 */
export default function PublicFormPage() {
  const { formId = '' } = useParams();
  const { t: pageT } = useTranslation();
  const routeLang = useLang();
  const [params, setParams] = useSearchParams();
  const [form, setForm] = useState<PublicForm | null>(null);
  const [missing, setMissing] = useState(false);
  const [values, setValues] = useState<SubmissionValues>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [honeypot, setHoneypot] = useState('');
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<PublicSubmitResult | null>(null);
  const [draftLink, setDraftLink] = useState<string | null>(null);
  const errorSummary = useRef<HTMLDivElement>(null);
  const draftToken = params.get('draft') ?? undefined;
  // The form speaks its own language; /en/forms/… asks for English whatever the form's.
  const lang = routeLang === 'en' || form?.language === 1 ? 'en' : 'el';
  const [englishReady, setEnglishReady] = useState(false);
  useEffect(() => {
    if (lang === 'en') void loadEnglish().then(() => setEnglishReady(true));
  }, [lang]);
  const t = useMemo(
    () => (lang === 'en' && !englishReady ? pageT : i18n.getFixedT(lang)),
    [lang, englishReady, pageT],
  );
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  useEffect(() => {
    const controller = new AbortController();
    publicFormsApi
      .get(formId, controller.signal)
      .then((loaded) => {
        setForm(loaded);
        document.title = loaded.title;
      })
      .catch((error) => {
        if (!controller.signal.aborted) setMissing(true);
        if (!isApiError(error)) console.error(error);
      });
    return () => controller.abort();
  }, [formId]);

  useEffect(() => {
    if (!draftToken) return;
    publicFormsApi.draft(formId, draftToken).then(
      (draft) => setValues(draft.values),
      () => setParams({}, { replace: true }),
    );
  }, [formId, draftToken, setParams]);

  const structure = useMemo<FormStructure>(() => {
    if (!form) return [];
    const parsed = parseStructure(form.api);
    return parsed.ok ? parsed.structure : [];
  }, [form]);

  const showErrors = (list: { field: string; key: string; params: Record<string, string | number> }[]) => {
    setErrors(Object.fromEntries(list.map((e) => [e.field, { key: e.key, params: e.params }])));
    // Announced (role=alert) and focused, so keyboard and screen-reader users land on what to fix.
    requestAnimationFrame(() => errorSummary.current?.focus());
  };

  const submit = async (draft: boolean) => {
    setFailure(null);
    if (!draft) {
      const checked = validateSubmission(structure, values);
      if (checked.errors.length > 0) {
        showErrors(checked.errors);
        return;
      }
    }
    setErrors({});
    setSending(true);
    try {
      const answer = await publicFormsApi.submit(formId, {
        values,
        website: honeypot || undefined,
        draft,
        draftToken,
      });
      if (draft && answer.draftToken) {
        setParams({ draft: answer.draftToken }, { replace: true });
        setDraftLink(`${window.location.origin}${window.location.pathname}?draft=${answer.draftToken}`);
        return;
      }
      if (answer.successUrl) {
        window.location.assign(answer.successUrl);
        return;
      }
      setResult(answer);
      window.scrollTo({ top: 0 });
    } catch (error) {
      if (isApiError(error) && error.fieldErrors.length > 0) showErrors(error.fieldErrors);
      else if (form?.errorUrl) window.location.assign(form.errorUrl);
      else setFailure(form?.errorNote || (isApiError(error) ? t(error.key, error.params) : String(error)));
    } finally {
      setSending(false);
    }
  };

  const errorCount = Object.keys(errors).length;
  const find = useCallback(
    (field: string, text: string) => publicFormsApi.lookup(formId, field, text),
    [formId],
  );
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', py: { xs: 2, sm: 4 } }}>
      <Container maxWidth="md" component="main">
        {missing ? (
          <Alert severity="warning" data-testid="public-form-missing">
            {t('onlineForms.public.notFound')}
          </Alert>
        ) : !form ? (
          <Skeleton variant="rounded" height={480} />
        ) : result ? (
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }} data-testid="public-form-success">
            <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
              <CheckCircleOutlineIcon color="success" sx={{ fontSize: 48 }} />
              <Typography component="h1" variant="h5">
                {t('onlineForms.public.successTitle')}
              </Typography>
              {result.successNote && (
                <Typography sx={{ whiteSpace: 'pre-line' }}>{result.successNote}</Typography>
              )}
              <Summary
                label={t('onlineForms.public.reference')}
                value={result.reference}
                testId="public-reference"
              />
              <Summary
                label={t('onlineForms.public.protocolNumber')}
                value={result.protocolNumber}
                testId="public-protocol-number"
              />
              {result.receipt && <ReceiptLink formId={formId} receipt={result.receipt} t={t} />}
              {result.rfCode && (
                <>
                  <Summary
                    label={t('onlineForms.public.fee')}
                    value={`${formatMoney(result.fee ?? '0', lang)} €`}
                    testId="public-fee"
                  />
                  <Summary
                    label={t('onlineForms.public.rfCode')}
                    value={result.rfCode.replace(/(.{4})/g, '$1 ').trim()}
                    testId="public-rf"
                  />
                  <Typography variant="body2" color="text.secondary">
                    {t('onlineForms.public.payHint')}
                  </Typography>
                </>
              )}
            </Stack>
          </Paper>
        ) : (
          <Paper
            variant="outlined"
            component="form"
            noValidate
            sx={{ p: { xs: 2, sm: 4 } }}
            onSubmit={(event) => {
              event.preventDefault();
              void submit(false);
            }}
            aria-labelledby="public-form-title"
          >
            <Stack spacing={3}>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                <BrandMark />
                <Typography variant="body2" color="text.secondary">
                  {form.companyName}
                </Typography>
              </Stack>
              <Box>
                <Typography id="public-form-title" component="h1" variant="h5" sx={{ fontWeight: 600 }}>
                  {form.title}
                </Typography>
                {form.description && (
                  <Typography color="text.secondary" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
                    {form.description}
                  </Typography>
                )}
                <Typography variant="caption" color="text.secondary">
                  {t('onlineForms.public.requiredHint')}
                </Typography>
              </Box>
              {(errorCount > 0 || failure) && (
                <Alert
                  ref={errorSummary}
                  tabIndex={-1}
                  severity="error"
                  role="alert"
                  data-testid="public-form-errors"
                >
                  <AlertTitle>
                    {failure ? t('onlineForms.public.errorTitle') : t('onlineForms.builder.fixErrors')}
                  </AlertTitle>
                  {failure}
                </Alert>
              )}
              <FormRenderer
                structure={structure}
                values={values}
                onChange={setValues}
                errors={errors}
                t={t}
                language={routeLang}
                upload={(field, file) => publicFormsApi.upload(formId, field, file)}
                lookup={find}
                idPrefix="public"
                readOnly={form.readonly}
              />
              {/* The honeypot: hidden from people and from assistive technology, filled only by bots. */}
              <Box
                aria-hidden="true"
                sx={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}
              >
                <TextField
                  label={t('onlineForms.public.honeypot')}
                  name="website"
                  autoComplete="off"
                  value={honeypot}
                  onChange={(event) => setHoneypot(event.target.value)}
                  slotProps={{ htmlInput: { tabIndex: -1 } }}
                />
              </Box>
              {draftLink && (
                <Alert severity="info" data-testid="public-draft-saved">
                  {t('onlineForms.public.draftSaved')}
                  <Box component="code" sx={{ display: 'block', wordBreak: 'break-all', mt: 1 }}>
                    {draftLink}
                  </Box>
                </Alert>
              )}
              {form.readonly && (
                <Alert severity="info" data-testid="public-form-readonly">
                  {t('onlineForms.public.readonly')}
                </Alert>
              )}
              <Stack
                direction={{ xs: 'column-reverse', sm: 'row' }}
                spacing={1.5}
                sx={{ justifyContent: 'flex-end', display: form.readonly ? 'none' : undefined }}
              >
                <Button
                  variant="outlined"
                  onClick={() => void submit(true)}
                  disabled={sending}
                  data-testid="public-save-draft"
                >
                  {t('onlineForms.public.saveDraft')}
                </Button>
                <Button
                  type="submit"
                  variant="contained"
                  size="large"
                  loading={sending}
                  data-testid="public-submit"
                >
                  {t('onlineForms.public.submit')}
                </Button>
              </Stack>
            </Stack>
          </Paper>
        )}
      </Container>
    </Box>
  );
}

/** How often the page asks whether the receipt PDF is ready. */
const RECEIPT_POLL_MS = 1500;

/**
 * The receipt PDF, drawn by a job after the answer: until it is ready the page says so and
 * asks again; then the link. A failed poll is asked again too: the citizen's number is already shown.
 */
function ReceiptLink({ formId, receipt, t }: { formId: string; receipt: string; t: TFunction }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const answer = await publicFormsApi.receipt(formId, receipt, controller.signal);
        if (answer.ready) {
          setReady(true);
          return;
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      timer = setTimeout(() => void ask(), RECEIPT_POLL_MS);
    };
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [formId, receipt, ready]);
  return ready ? (
    <Button
      variant="outlined"
      startIcon={<PictureAsPdfOutlinedIcon />}
      href={publicFormsApi.receiptUrl(formId, receipt)}
      data-testid="public-receipt-pdf"
    >
      {t('onlineForms.public.receiptPdf')}
    </Button>
  ) : (
    <Stack
      direction="row"
      spacing={1.5}
      sx={{ alignItems: 'center' }}
      role="status"
      data-testid="public-receipt-pending"
    >
      <CircularProgress size={18} aria-hidden />
      <Typography variant="body2" color="text.secondary">
        {t('onlineForms.public.receiptPending')}
      </Typography>
    </Stack>
  );
}

function Summary({ label, value, testId }: { label: string; value: string | null; testId: string }) {
  if (!value) return null;
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}
