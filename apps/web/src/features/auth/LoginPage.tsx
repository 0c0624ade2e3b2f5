import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import VisibilityOffOutlinedIcon from '@mui/icons-material/VisibilityOffOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Language, LoginRequest } from '@protocol/contracts';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { BrandMark } from '../../components/BrandMark.tsx';
import { OutlinedField } from '../../components/form/OutlinedField.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { ThemeToggle } from '../../components/ThemeToggle.tsx';
import { isApiError } from '../../lib/api.ts';
import { useInstallationEnv } from '../../lib/env.ts';
import { encodeFieldMessage, errorMessage, fieldMessage } from '../../lib/errors.ts';
import { localizePath, stripLang } from '../../lib/lang.ts';
import { useLang } from '../../lib/language.tsx';
import { useSession } from '../../lib/session.tsx';
import { authApi, safeReturnPath, ssoAuthorizeUrl } from './api.ts';

/**
 * The login rules come from the contracts (zod). They load in the background once the page has
 * painted, so the sign-in page's first load stays small; a fast submit just waits for them.
 */
const loadValidation = () => import('./loginValidation.ts');

function usePrefetchValidation() {
  useEffect(() => {
    if ('requestIdleCallback' in window) {
      const handle = window.requestIdleCallback(() => void loadValidation(), { timeout: 1500 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => void loadValidation(), 300);
    return () => clearTimeout(timer);
  }, []);
}

/** The identity provider's answer is handled once, even if the page renders twice (StrictMode). */
const handledCallbacks = new Set<string>();

/** The language the user started single sign-on in: the provider always comes back to /login. */
const SSO_LANG_KEY = 'ssoLang';

function rememberSsoLanguage(lang: string) {
  try {
    sessionStorage.setItem(SSO_LANG_KEY, lang);
  } catch {
    // without storage the user comes back in the language of the callback path
  }
}

function takeSsoLanguage(fallback: Language): Language {
  try {
    const stored = sessionStorage.getItem(SSO_LANG_KEY);
    sessionStorage.removeItem(SSO_LANG_KEY);
    return stored === 'en' || stored === 'el' ? stored : fallback;
  } catch {
    return fallback;
  }
}

function BrandPanel() {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: { xs: 'none', md: 'flex' },
        flexDirection: 'column',
        justifyContent: 'space-between',
        p: 6,
        color: '#fff',
        position: 'relative',
        overflow: 'hidden',
        background: 'linear-gradient(145deg, #2a0090 0%, #5000ff 55%, #2d6bff 100%)',
      }}
    >
      <Box
        aria-hidden
        sx={{
          position: 'absolute',
          inset: 0,
          background:
            'radial-gradient(circle at 85% 15%, rgba(0,200,254,0.45) 0, rgba(0,200,254,0) 42%), radial-gradient(circle at 10% 95%, rgba(0,200,254,0.3) 0, rgba(0,200,254,0) 40%)',
        }}
      />
      <Box
        component="svg"
        aria-hidden
        viewBox="0 0 600 200"
        preserveAspectRatio="none"
        sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, width: '100%', height: 180, opacity: 0.35 }}
      >
        <path d="M0 120 C 150 60 300 180 600 90 L600 200 L0 200 Z" fill="rgba(255,255,255,0.25)" />
        <path d="M0 150 C 200 100 380 200 600 140 L600 200 L0 200 Z" fill="rgba(0,200,254,0.45)" />
      </Box>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', position: 'relative' }}>
        <BrandMark size={44} inverted />
        <Typography component="p" sx={{ fontSize: 26, fontWeight: 700 }}>
          {t('app.name')}
        </Typography>
      </Stack>
      <Box sx={{ position: 'relative', maxWidth: 440 }}>
        <Typography component="p" sx={{ fontSize: 30, fontWeight: 600, lineHeight: 1.25, mb: 2 }}>
          {t('app.tagline')}
        </Typography>
        <Typography component="p" sx={{ opacity: 0.85, lineHeight: 1.6 }}>
          {t('apps.protocolDescription')}
        </Typography>
      </Box>
      <Typography component="p" variant="body2" sx={{ position: 'relative', opacity: 0.8 }}>
        {t('login.footer')}
      </Typography>
    </Box>
  );
}

export default function LoginPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const navigate = useNavigate();
  const env = useInstallationEnv();
  const { signIn } = useSession();
  const [showPassword, setShowPassword] = useState(false);
  usePrefetchValidation();
  const [error, setError] = useState<unknown>(null);

  const params = new URLSearchParams(location.search);
  const isCallback = params.has('code') || params.has('error');
  const [completingSso, setCompletingSso] = useState(isCallback);
  const from = (location.state as { from?: unknown } | null)?.from;
  const returnTo = stripLang(safeReturnPath(from));

  const [values, setValues] = useState<LoginRequest>({ username: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof LoginRequest, string>>>({});
  const [validating, setValidating] = useState(false);

  const login = useMutation({
    mutationFn: authApi.login,
    meta: { errorSnackbar: false },
    onSuccess: (data) => signIn(data.jwttoken),
    onError: (failure) => {
      setError(failure);
      if (isApiError(failure)) {
        const next: Partial<Record<keyof LoginRequest, string>> = {};
        for (const item of failure.fieldErrors) {
          if (item.field === 'username' || item.field === 'password') {
            next[item.field] = encodeFieldMessage(item.key, item.params);
          }
        }
        setFieldErrors(next);
      }
    },
  });

  const change = (field: keyof LoginRequest) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  // Back from the identity provider: /login?code=…&state=… (or ?error=…).
  useEffect(() => {
    if (!isCallback) return;
    const callbackParams = location.search.replace(/^\?/, '');
    if (handledCallbacks.has(callbackParams)) return;
    handledCallbacks.add(callbackParams);
    setCompletingSso(true);
    authApi
      .ssoCallback(callbackParams)
      .then((data) =>
        signIn(data.jwttoken, localizePath(safeReturnPath(data.returnTo), takeSsoLanguage(lang))),
      )
      .catch((failure: unknown) => {
        setError(failure);
        setCompletingSso(false);
        navigate({ pathname: location.pathname, search: '' }, { replace: true, state: location.state });
      });
  }, [isCallback, location.search, location.pathname, location.state, lang, navigate, signIn]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setValidating(true);
    try {
      const result = (await loadValidation()).validateLogin(values);
      if (result.ok) {
        setFieldErrors({});
        login.mutate(result.values);
      } else setFieldErrors(result.errors);
    } catch (failure) {
      setError(failure);
    } finally {
      setValidating(false);
    }
  };

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: 'minmax(380px, 5fr) 7fr' },
        bgcolor: 'background.default',
      }}
    >
      <BrandPanel />
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
        <Stack
          direction="row"
          spacing={0.5}
          sx={{ justifyContent: 'flex-end', p: 1.5, color: 'text.secondary' }}
        >
          <LanguageSwitcher />
          <ThemeToggle />
        </Stack>
        <Box sx={{ flexGrow: 1, display: 'grid', placeItems: 'center', px: 2, pb: 6 }}>
          <Paper
            variant="outlined"
            sx={{
              width: '100%',
              maxWidth: 420,
              p: { xs: 3, sm: 4.5 },
              borderRadius: 3,
              boxShadow: '0 12px 40px rgba(20, 10, 80, 0.08)',
            }}
          >
            <Stack
              direction="row"
              spacing={1.25}
              sx={{ alignItems: 'center', mb: 3, display: { xs: 'flex', md: 'none' } }}
            >
              <BrandMark size={34} />
              <Typography component="p" sx={{ fontSize: 20, fontWeight: 700 }}>
                {t('app.name')}
              </Typography>
            </Stack>
            <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 0.75 }}>
              {t('login.title')}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {t('login.subtitle')}
            </Typography>

            {error !== null && (
              <Alert severity="error" data-testid="login-error" sx={{ mb: 2.5 }}>
                {errorMessage(t, error)}
              </Alert>
            )}

            {completingSso ? (
              <Stack spacing={2} sx={{ alignItems: 'center', py: 4 }} role="status">
                <CircularProgress aria-hidden />
                <Typography>{t('login.ssoInProgress')}</Typography>
              </Stack>
            ) : (
              <>
                <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
                  <Stack spacing={2.25}>
                    <OutlinedField
                      name="username"
                      value={values.username}
                      onChange={change('username')}
                      error={fieldMessage(t, fieldErrors.username)}
                      label={t('login.username')}
                      autoComplete="username"
                      autoFocus
                      required
                      testId="login-username"
                    />
                    <OutlinedField
                      name="password"
                      value={values.password}
                      onChange={change('password')}
                      error={fieldMessage(t, fieldErrors.password)}
                      label={t('login.password')}
                      type={showPassword ? 'text' : 'password'}
                      autoComplete="current-password"
                      required
                      testId="login-password"
                      endAdornment={
                        <InputAdornment position="end">
                          <IconButton
                            edge="end"
                            aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                            onClick={() => setShowPassword((value) => !value)}
                          >
                            {showPassword ? <VisibilityOffOutlinedIcon /> : <VisibilityOutlinedIcon />}
                          </IconButton>
                        </InputAdornment>
                      }
                    />
                    <Button
                      type="submit"
                      variant="contained"
                      size="large"
                      fullWidth
                      loading={login.isPending || validating}
                      data-testid="login-submit"
                      sx={{ py: 1.25, mt: 0.5 }}
                    >
                      {t('login.submit')}
                    </Button>
                  </Stack>
                </Box>
                {env?.sso.enabled && (
                  <>
                    <Divider sx={{ my: 2.5, color: 'text.secondary', fontSize: 13 }}>{t('login.or')}</Divider>
                    <Button
                      variant="outlined"
                      size="large"
                      fullWidth
                      href={ssoAuthorizeUrl(returnTo)}
                      startIcon={<KeyOutlinedIcon />}
                      data-testid="login-sso"
                      onClick={() => rememberSsoLanguage(lang)}
                      sx={{ py: 1.1 }}
                    >
                      {t('login.sso')}
                    </Button>
                  </>
                )}
              </>
            )}
          </Paper>
        </Box>
      </Box>
    </Box>
  );
}
