import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

// Notifications as an operator meets them (issue 13): a colleague charges two documents to me, the
// bell's count rises without a reload, a notification opens its document, and /notifications marks
// the rest read. The installation polls every 1.5 s here instead of the product's 60 s.

const DEMO_PASSWORD = 'Demo-2026!';
const POLL_MS = 1500;
const SUBJECTS = ['Αίτηση αλλαγής υδρομέτρου οδός Ερμού 12', 'Αίτηση διακανονισμού οφειλής οδός Σόλωνος 3'];
let e2e: E2E;
const documentIds: number[] = [];

async function signedIn(username: string) {
  const { context, page } = await e2e.newPage();
  await openSignedIn(page, username, DEMO_PASSWORD, '/');
  await page.getByTestId('dashboard-greeting').waitFor();
  return { context, page };
}

/** Opens the bell's panel and waits until it has faded in, the pointer off the bell's tooltip. */
async function openBell(page: Page) {
  await page.getByTestId('notification-bell').click();
  await page.getByTestId('notification-panel').waitFor();
  await page.mouse.move(600, 700);
  await expect
    .poll(() =>
      page
        .getByTestId('notification-panel')
        .evaluate((panel) => getComputedStyle(panel.closest('.MuiPopover-paper') ?? panel).opacity),
    )
    .toBe('1');
}

/** What the bell's badge shows: '' when hidden (nothing unread). */
async function badge(page: Page): Promise<string> {
  const shown = page.getByTestId('notification-badge').locator('.MuiBadge-badge');
  if ((await shown.getAttribute('class'))?.includes('MuiBadge-invisible')) return '';
  return (await shown.textContent()) ?? '';
}

/** Registers an incoming document with a sender and charges it to gnikolaou; returns its id. */
async function registerAndCharge(page: Page, subject: string, comments: string): Promise<number> {
  await page.goto('/document/create?kind=0');
  await page.getByTestId('attachments-save-first').waitFor();
  await page.getByTestId('document-subject').fill(subject);
  await page.getByTestId('document-senders-picker').fill('παπαδοπουλος');
  await page.getByRole('option', { name: /Παπαδόπουλος Ιωάννης/ }).click();
  const book = page.getByTestId('document-book');
  const bookValue = await book.locator('option', { hasText: 'Εισερχόμενα' }).first().getAttribute('value');
  await book.selectOption(bookValue ?? '');
  await page.getByTestId('document-save').click();
  await page.getByTestId('confirm-dialog-ok').click();
  await page.waitForURL(/\/document\/\d+\/edit/);
  const id = Number(/\/document\/(\d+)\/edit/.exec(page.url())?.[1]);
  await page.getByTestId('document-actions').click();
  await page.getByTestId('action-charge').click();
  await page.getByTestId('action-comments').fill(comments);
  await page.getByTestId('action-operator').fill('Νικολ');
  await page.getByTestId('operator-option-gnikolaou').click();
  await page.getByTestId('action-dialog-ok').click();
  await page
    .getByTestId('document-info')
    .getByText(/Νικολάου/)
    .waitFor();
  return id;
}

beforeAll(async () => {
  e2e = await startE2E({ NOTIFICATION_POLL_MS: String(POLL_MS) });
});
afterAll(async () => {
  await e2e?.close();
});

describe('notifications', () => {
  let colleague: Awaited<ReturnType<typeof signedIn>>;

  it('rings the bell when a document is charged to me, and opens it from the list', async () => {
    colleague = await signedIn('gnikolaou');
    const { page } = colleague;
    // Start from nothing unread, whatever the demo data left.
    await openBell(page);
    const markAll = page.getByTestId('notification-mark-all');
    if (await markAll.isEnabled()) {
      await markAll.click();
      await expect.poll(() => markAll.isDisabled()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => badge(page)).toBe('');

    const secretary = await signedIn('mpapadopoulou');
    documentIds.push(await registerAndCharge(secretary.page, SUBJECTS[0] as string, 'Έλεγχος υδρομέτρου'));
    documentIds.push(await registerAndCharge(secretary.page, SUBJECTS[1] as string, 'Πρόταση δόσεων'));
    await secretary.context.close();

    // No reload: the bell asks again every POLL_MS.
    await expect.poll(() => badge(page), { timeout: 10 * POLL_MS }).toBe('2');
    await openBell(page);
    const items = page.getByTestId('notification-panel').getByTestId('notification-item');
    await items.first().waitFor();
    await expect.poll(() => items.first().textContent()).toContain(SUBJECTS[1]);
    await expect.poll(() => items.first().textContent()).toContain('Πρόταση δόσεων');
    // The sender as the notifications list names them (issue 32 item 7: one order, surname first).
    await expect.poll(() => items.first().textContent()).toContain('Παπαδοπούλου Μαρία');
    await shot(page, 'e2e-notifications-bell-el-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    await items.filter({ hasText: SUBJECTS[0] }).click();
    await page.waitForURL(new RegExp(`/document/${documentIds[0]}/edit`));
    await page.getByTestId('document-subject').waitFor();
    expect(await page.getByTestId('document-subject').inputValue()).toBe(SUBJECTS[0]);
    await expect.poll(() => badge(page)).toBe('1');
  });

  it('/notifications marks the selected read', async () => {
    const { page } = colleague;
    await openBell(page);
    await page.getByTestId('notification-show-all').click();
    await page.waitForURL(/\/notifications/);
    const rows = page.getByTestId('data-table-row');
    await rows.first().waitFor();
    const unreadRow = rows.filter({ hasText: SUBJECTS[1] });
    await unreadRow.locator('input[type=checkbox]').check();
    const markSelected = page.getByTestId('notifications-mark-selected');
    await expect.poll(() => markSelected.isEnabled()).toBe(true);
    await shot(page, 'e2e-notifications-page-el-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await markSelected.click();
    await expect.poll(() => badge(page)).toBe('');
    await expect
      .poll(() => rows.filter({ hasText: SUBJECTS[1] }).getByRole('img', { name: 'Ναι' }).count())
      .toBe(1);
  });

  it('looks right in English and in the dark theme', async () => {
    const { page } = colleague;
    for (const [lang, theme] of [
      ['en', 'light'],
      ['el', 'dark'],
      ['en', 'dark'],
    ] as const) {
      await colleague.context.addCookies([{ name: 'theme', value: theme, url: e2e.baseUrl }]);
      await page.goto(lang === 'en' ? '/en/notifications' : '/notifications');
      await page.getByTestId('data-table-row').first().waitFor();
      if (lang === 'en') {
        await expect
          .poll(() => page.getByTestId('data-table-row').first().textContent())
          .toContain('was charged to you');
      }
      await shot(page, `e2e-notifications-page-${lang}-${theme}`);
      await openBell(page);
      const first = page.getByTestId('notification-item').first();
      await first.waitFor();
      expect(await first.textContent()).toContain(lang === 'en' ? 'was charged to you' : 'Σας χρεώθηκε');
      await shot(page, `e2e-notifications-bell-${lang}-${theme}`);
      await page.keyboard.press('Escape');
    }
    await colleague.context.close();
  });
});

describe('issue 30: a notification of another of my companies', () => {
  for (const [lang, prefix] of [
    ['el', ''],
    ['en', '/en'],
  ] as const) {
    it(`switches to its company and opens its document (${lang})`, async () => {
      // The administrator works for every company: the demo company (first, in use after signing in)
      // and a second one, where a document was charged to them.
      const api = await signInApi(e2e);
      const company = await api('POST', '/api/companies', {
        companyname: `ΔΕΥΑ Δεύτερη ${lang}`,
        companytitle: `Δημοτική Επιχείρηση Ύδρευσης Δεύτερη ${lang}`,
        vatnumber: null,
        active: true,
      });
      expect(company.status, JSON.stringify(company.body)).toBe(201);
      const companyB: number = company.body.id;
      const subject = `Αίτηση της δεύτερης επιχείρησης (${lang})`;
      const document = await api('POST', `/api/document?companyid=${companyB}`, { kind: 1, subject });
      expect(document.status, JSON.stringify(document.body)).toBe(201);
      const me = (await api('GET', '/api/users/authenticatedUser')).body;
      await e2e.sql(
        `INSERT INTO notifications (company_id, user_id, message_key, params, entity, entity_id, comments)
         VALUES (${companyB}, ${me.id}, 'documents.notification.charged', '{"subject": "${subject}"}',
                 'document', ${document.body.id}, 'Για έλεγχο')`,
      );

      const { context, page } = await e2e.newPage({ locale: lang === 'el' ? 'el-GR' : 'en-GB' });
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, prefix || '/');
      await page.getByTestId('dashboard-greeting').waitFor();
      const switcher = page.getByTestId('company-switcher');
      const companyA = Number(await switcher.getAttribute('data-company-id'));
      expect(companyA).not.toBe(companyB);

      await openBell(page);
      const item = page
        .getByTestId('notification-panel')
        .getByTestId('notification-item')
        .filter({ hasText: subject });
      await item.waitFor();
      await item.click();
      await page.waitForURL(new RegExp(`${prefix}/document/${document.body.id}/edit`));
      await expect.poll(() => page.getByTestId('document-subject').inputValue()).toBe(subject);
      expect(Number(await switcher.getAttribute('data-company-id'))).toBe(companyB);
      expect(await switcher.textContent()).toContain(`ΔΕΥΑ Δεύτερη ${lang}`);
      await shot(page, `e2e-notifications-other-company-${lang}-light`);

      // Back in the first company, the same notification from /notifications switches again.
      await switcher.click();
      await page.getByTestId(`company-option-${companyA}`).click();
      await expect.poll(() => switcher.getAttribute('data-company-id')).toBe(String(companyA));
      await page.goto(`${prefix}/notifications`);
      const row = page.getByTestId('data-table-row').filter({ hasText: subject });
      await row.waitFor();
      await row.getByText(subject).click();
      await page.waitForURL(new RegExp(`${prefix}/document/${document.body.id}/edit`));
      await expect.poll(() => page.getByTestId('document-subject').inputValue()).toBe(subject);
      expect(Number(await switcher.getAttribute('data-company-id'))).toBe(companyB);
      await context.close();
    });
  }
});
