import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * What axe finds on the page that the product does not accept: serious and critical violations,
 * and label in name (WCAG 2.5.3: a control's accessible name contains its visible text), a rule axe
 * ships switched off as experimental. One line per violation, naming the elements. Read once the
 * page's finite animations have ended: a snackbar growing in is half transparent, and axe would
 * measure the contrast of its text mid-fade.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const result = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations
    .filter(
      (v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'label-content-name-mismatch',
    )
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
