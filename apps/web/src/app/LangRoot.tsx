import type { Language } from '@protocol/contracts';
import { useLayoutEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { setLanguage } from '../i18n/index.ts';
import { cookieLang, localizePath } from '../lib/lang.ts';

/**
 * The root of one language's routes. Sets i18next, dayjs and `<html lang>`; a Greek path while the
 * locale cookie says English goes to the /en form, so the user's choice survives (spec §2).
 */
export function LangRoot({ lang }: { lang: Language }) {
  const location = useLocation();
  const redirect = lang === 'el' && cookieLang() === 'en';

  useLayoutEffect(() => {
    if (!redirect) setLanguage(lang);
  }, [lang, redirect]);

  if (redirect) {
    return (
      <Navigate
        to={`${localizePath(location.pathname, 'en')}${location.search}${location.hash}`}
        replace
        state={location.state}
      />
    );
  }
  return <Outlet />;
}
