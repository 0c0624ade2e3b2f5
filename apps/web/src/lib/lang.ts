import type { Language } from '@protocol/contracts';
import { getCookie } from './cookies.ts';

export const LOCALE_COOKIE = 'locale';

/** The language a path is in: the `/en` prefix means English, anything else is Greek (the default). */
export function langFromPath(pathname: string): Language {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : 'el';
}

/** The path without its language prefix, always starting with '/'. */
export function stripLang(pathname: string): string {
  if (pathname === '/en') return '/';
  if (pathname.startsWith('/en/')) return pathname.slice(3);
  return pathname || '/';
}

/** The same path in the given language: English adds `/en`, Greek has no prefix. */
export function localizePath(path: string, lang: Language): string {
  const neutral = stripLang(path.startsWith('/') ? path : `/${path}`);
  if (lang === 'el') return neutral;
  if (neutral === '/') return '/en';
  if (neutral.startsWith('/?') || neutral.startsWith('/#')) return `/en${neutral.slice(1)}`;
  return `/en${neutral}`;
}

export function cookieLang(): Language | undefined {
  const value = getCookie(LOCALE_COOKIE);
  return value === 'el' || value === 'en' ? value : undefined;
}
