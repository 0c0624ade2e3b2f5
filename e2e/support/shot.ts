import path from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from './harness.ts';

/**
 * The page as `screenshots/<name>.png`, to look at: the whole page unless `fullPage: false` (the
 * window only, e.g. to see what sits above the fold).
 */
export function shot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}
