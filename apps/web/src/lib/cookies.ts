const YEAR_SECONDS = 365 * 24 * 60 * 60;

export function getCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return undefined;
}

/** Sets a cookie for the whole site; remembered for 365 days unless told otherwise (spec §9). */
export function setCookie(name: string, value: string, maxAgeSeconds = YEAR_SECONDS): void {
  // biome-ignore lint/suspicious/noDocumentCookie: plain cookies are enough for these UI preferences
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; max-age=${maxAgeSeconds}; path=/; SameSite=Lax`;
}
