import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../support/harness.ts';
import { CATALOG_NAMESPACES, expectNoRawKeys, rawKeysIn, rawKeysOn } from '../support/keys.ts';

/** The raw-key detector every shot() runs: it finds keys, and leaves addresses, files and numbers alone. */
describe('the raw catalog key detector', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  afterAll(() => browser?.close());

  it('knows the catalogs’ namespaces', () => {
    expect(CATALOG_NAMESPACES).toEqual(expect.arrayContaining(['jobs', 'billing', 'settings', 'validation']));
  });

  it('finds keys and nothing else in text', () => {
    expect(
      rawKeysIn([
        'Η εργασία «jobs.kind.foo» ολοκληρώθηκε.',
        'billing.run',
        'm.papadopoulou@deya-example.gr, jobs@deya.gr, https://protocol.deya.gr/jobs.list',
        'λογαριασμός-01.pdf, billing.csv, settings.json, 1.135,30 €, v1.2.3, π.χ. gen.deya_aa',
        'DATA_DIR/settings.log and ./data/jobs.x',
      ]),
    ).toEqual(['jobs.kind.foo', 'billing.run']);
  });

  it('reads the visible text, titles and aria-labels of a page, not hidden text nor code', async () => {
    const page = await browser.newPage();
    await page.setContent(`
      <main>
        <h1>Εργασίες</h1>
        <p>Η εργασία jobs.kind.foo ολοκληρώθηκε</p>
        <button aria-label="common.save">✓</button>
        <span title="notifications.title">🔔</span>
        <p hidden>jobs.kind.hidden</p>
        <p style="display:none">jobs.kind.none</p>
        <p>Όνομα <code>readouts.abnormal_multiple</code></p>
      </main>`);
    expect((await rawKeysOn(page)).sort()).toEqual(['common.save', 'jobs.kind.foo', 'notifications.title']);
    await expect(expectNoRawKeys(page, 'fixture')).rejects.toThrow('jobs.kind.foo');
    await page.setContent('<main><h1>Εργασίες</h1><p>Αναδημιουργία ευρετηρίου αναζήτησης</p></main>');
    await expectNoRawKeys(page);
    await page.close();
  });
});
