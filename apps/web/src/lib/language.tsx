import type { Language } from '@protocol/contracts';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { langFromPath, localizePath } from './lang.ts';

/** The language of the current route: `/en…` is English, everything else Greek. */
export function useLang(): Language {
  return langFromPath(useLocation().pathname);
}

/** Turns a language-neutral path ('/about') into the current language's form ('/en/about'). */
export function useLocalize(): (path: string) => string {
  const lang = useLang();
  return useCallback((path: string) => localizePath(path, lang), [lang]);
}
