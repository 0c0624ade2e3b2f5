/** Spec §8/§9: a chunk-load failure reloads the page, at most once per 60 seconds. */
const KEY = 'chunkReloadAt';
export const CHUNK_RELOAD_GUARD_MS = 60_000;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk/i.test(
      error.message,
    )
  );
}

/** Reloads unless a reload already happened in the last 60 s; says whether it reloads. */
export function reloadOnceForChunkError(): boolean {
  let last = 0;
  try {
    last = Number(sessionStorage.getItem(KEY) ?? 0);
  } catch {
    last = 0;
  }
  if (Date.now() - last < CHUNK_RELOAD_GUARD_MS) return false;
  try {
    sessionStorage.setItem(KEY, String(Date.now()));
  } catch {
    // without storage we still reload once for this page
  }
  window.location.reload();
  return true;
}
