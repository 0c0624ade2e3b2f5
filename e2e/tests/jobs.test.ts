import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
  // Three failed jobs of the administrator as the jobs table keeps them: a catalog key, a key with
  // params, and a text kept before jobs kept keys.
  const failed = (minutes: number, error: string) =>
    `('search.reindex', 'failed', (SELECT id FROM users WHERE username = 'admin'), 1, 1,
      '${error}', now() - interval '${minutes} minutes', now() - interval '${minutes} minutes',
      now() - interval '${minutes} minutes')`;
  await e2e.sql(`INSERT INTO jobs (kind, state, owner_id, company_id, attempts, error, created_at, started_at, finished_at)
    VALUES ${failed(3, 'error.job_aborted')},
      ${failed(2, 'error.mail_failed?{"detail":"550 mailbox full"}')},
      ${failed(1, 'Stopped')}`);
});
afterAll(async () => {
  await e2e?.close();
});

const GREEK = [
  'Η εργασία διακόπηκε πριν ολοκληρωθεί. Ξεκινήστε την ξανά.',
  'Ο διακομιστής e-mail δεν δέχτηκε το μήνυμα: 550 mailbox full',
];
const ENGLISH = [
  'The job was interrupted before it finished. Start it again.',
  'The mail server did not accept the message: 550 mailbox full',
];

describe('a failed job’s reason', () => {
  it('issue 29 item 15: the jobs drawer and the jobs page word a failed job’s reason in Greek and in English, never its key', async () => {
    for (const [language, texts, generic] of [
      ['el', GREEK, 'Η εργασία απέτυχε'],
      ['en', ENGLISH, 'The job failed'],
    ] as const) {
      const { context, page } = await e2e.newPage();
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, language === 'en' ? '/en' : '/');
      await page.getByTestId('dashboard-greeting').waitFor();
      await page.getByTestId('topbar-jobs').click();
      const drawer = page.getByTestId('jobs-drawer');
      await drawer.waitFor();
      await expect.poll(() => drawer.getByTestId('job-error').allTextContents()).toHaveLength(3);
      const shown = await drawer.getByTestId('job-error').allTextContents();
      // Newest first: the old 'Stopped' reads as the general failure.
      expect(shown[0]).toContain(generic);
      expect(shown.slice(1)).toEqual([texts[1], texts[0]]);
      expect(shown.join(' ')).not.toMatch(/error\.|Stopped/);
      await shot(page, `jobs-drawer-errors-${language}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await page.goto(language === 'en' ? '/en/jobs' : '/jobs');
      const table = page.getByTestId('data-table');
      await expect.poll(() => table.textContent()).toContain(texts[0]);
      const text = (await table.textContent()) ?? '';
      expect(text).toContain(texts[1]);
      expect(text).not.toMatch(/error\.|Stopped/);
      await shot(page, `jobs-page-errors-${language}`);
      await context.close();
    }
  });
});
