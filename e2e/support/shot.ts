import path from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from './harness.ts';
import { expectNoRawKeys } from './keys.ts';

/**
 * The page as `screenshots/<name>.png`, to look at: the whole page unless `fullPage: false` (the
 * window only, e.g. to see what sits above the fold). Then fails if the page shows a raw catalog
 * key (keys.ts): the picture stays, to see where.
 */
export async function shot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  // A drawer or dialog still sliding in would be caught half-way: wait for the transitions that end
  // (a spinner's endless one never does).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  const picture = await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
  await expectNoRawKeys(page, name);
  return picture;
}
