import { readFileSync } from 'node:fs';
import { csvRows } from '@protocol/server/testing/files';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { ADMIN_PASSWORD, type E2E, signIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

let e2e: E2E;
let api: Api;

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
});
afterAll(async () => {
  await e2e?.close();
});

/** A valid ΑΦΜ from eight digits: the glossary's check digit. */
function afm(eight: string): string {
  const digits = [...eight].map(Number);
  const sum = digits.reduce((s, d, i) => s + d * 2 ** (8 - i), 0);
  return `${eight}${(sum % 11) % 10}`;
}

async function signedIn(page: Page, username = 'admin', password = ADMIN_PASSWORD, prefix = '') {
  await signIn(page, username, password, `${prefix}/login`);
  await page.getByTestId('dashboard-greeting').waitFor();
}

const CATALOGUE = 'Κατάλογος ηλεκτρονικών αιτήσεων';

describe('issue 29 item 10: a company’s own export in a list’s export menu', () => {
  for (const [lang, prefix, title] of [
    ['el', '', 'Τίτλος'],
    ['en', '/en', 'Title'],
  ] as const) {
    it(`issue 29 item 10: the online forms list offers the demo company’s catalogue and downloads it (${lang})`, async () => {
      const { context, page } = await e2e.newPage({ locale: lang === 'el' ? 'el-GR' : 'en-GB' });
      await signedIn(page, 'admin', ADMIN_PASSWORD, prefix);
      await page.goto(`${prefix}/online_forms`);
      await page.getByTestId('data-table-row').first().waitFor();
      await page.getByTestId('action-custom-exports').click();
      const entry = page.getByTestId('custom-export');
      await expect.poll(() => entry.allTextContents()).toEqual([CATALOGUE]);
      await page.waitForTimeout(300); // the menu's opening transition
      await shot(page, `custom-export-menu-${lang}`, { fullPage: false });

      const [file] = await Promise.all([page.waitForEvent('download'), entry.click()]);
      expect((file as Download).suggestedFilename()).toMatch(/^Κατάλογος_ηλεκτρονικών_αιτήσεων_.*\.csv$/);
      const rows = csvRows(readFileSync(await (file as Download).path()));
      // The export as the company defined it: code and title, by title, headers in the screen's language.
      expect(rows[0]?.[1]).toBe(title);
      const titles = rows.slice(1).map((row) => row[1]);
      expect(titles).toEqual(
        expect.arrayContaining(['Αίτηση νέας σύνδεσης ύδρευσης', 'Δήλωση βλάβης / διαρροής']),
      );
      expect(titles).toEqual([...titles].sort((a, b) => (a ?? '').localeCompare(b ?? '', 'el')));
      await context.close();
    });
  }

  it('issue 29 item 10: a list the company has no export of shows no such menu', async () => {
    const { context, page } = await e2e.newPage();
    await signedIn(page);
    await page.goto('/users');
    await page.getByTestId('data-table-row').first().waitFor();
    await page.getByTestId('action-excel').waitFor();
    expect(await page.getByTestId('action-custom-exports').count()).toBe(0);
    await context.close();
  });
});

describe('issue 29 item 11: the super administrator’s companies', () => {
  it('issue 29 item 11: as admin, lists the companies, creates one, edits it and deactivates it', async () => {
    const { context, page } = await e2e.newPage();
    await signedIn(page);
    await page.getByTestId('menu-companies').click();
    await page.waitForURL(/\/companies$/);
    await expect.poll(() => page.getByTestId('data-table-row').count()).toBe(1);
    await page.getByTestId('action-create').click();
    await page.waitForURL(/\/companies\/create$/);

    await page.getByTestId('company-companyname').fill('ΔΕΥΑ Νέας Πόλης');
    await page
      .getByTestId('company-companytitle')
      .fill('Δημοτική Επιχείρηση Ύδρευσης-Αποχέτευσης Νέας Πόλης');
    // A wrong check digit is refused under the field, before anything is sent.
    await page.getByTestId('company-vatnumber').fill('094014202');
    await page.getByTestId('company-save').click();
    await expect.poll(() => page.getByText('Ο ΑΦΜ δεν είναι έγκυρος').count()).toBeGreaterThan(0);
    await page.getByTestId('company-vatnumber').fill(afm('09401420'));
    await page.getByTestId('company-address').fill('Πλατεία Δημαρχείου 1');
    await page.getByTestId('company-city').fill('Νέα Πόλη');
    await page.getByTestId('company-zipcode').fill('62200');
    await page.getByTestId('company-phone').fill('2321000000');
    await page.getByTestId('company-email').fill('info@deya-neapoli.gr');
    await page.getByTestId('company-save').click();
    await page.waitForURL(/\/companies\/\d+\/edit$/);
    const id = Number(page.url().match(/companies\/(\d+)\/edit/)?.[1]);
    expect((await api('GET', `/api/companies/${id}`)).body).toMatchObject({
      companyname: 'ΔΕΥΑ Νέας Πόλης',
      vatnumber: afm('09401420'),
      city: 'Νέα Πόλη',
      zipcode: '62200',
      active: true,
    });

    // Edit, once the edit page's own form is there: the create form gives way to it after the URL changes.
    await page.getByTestId('company-status-chip').waitFor();
    await expect.poll(() => page.getByTestId('company-phone').inputValue()).toBe('2321000000');
    await page.getByTestId('company-phone').fill('2321099999');
    await page.getByTestId('company-save').click();
    await expect.poll(async () => (await api('GET', `/api/companies/${id}`)).body.phone).toBe('2321099999');
    // Looked at without the snackbars of the saves.
    await page.reload();
    await page.getByTestId('company-companyname').waitFor();
    await shot(page, 'company-edit-el');

    // Deactivate: asked first, then the company is closed.
    await page.getByTestId('company-active').click();
    await page.getByTestId('company-save').click();
    await page.getByTestId('confirm-dialog-ok').click();
    await expect.poll(async () => (await api('GET', `/api/companies/${id}`)).body.active).toBe(false);
    await expect.poll(() => page.getByTestId('company-status-chip').textContent()).toBe('Ανενεργή');

    await page.goto('/companies');
    await expect.poll(() => page.getByTestId('data-table-row').count()).toBe(2);
    await shot(page, 'companies-list-el');
    await context.close();
  });

  it('issue 29 item 11: the list and the edit page in English', async () => {
    const { context, page } = await e2e.newPage({ locale: 'en-GB' });
    await signedIn(page, 'admin', ADMIN_PASSWORD, '/en');
    await page.goto('/en/companies');
    await expect.poll(() => page.getByTestId('data-table-row').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('companies-header').textContent()).toContain('Companies');
    await shot(page, 'companies-list-en');
    const listed = await api('GET', '/api/companies/search?sort=companyname,ASC');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const [company] = listed.body.content;
    await page.goto(`/en/companies/${company.id}/edit`);
    await page.getByTestId('company-companyname').waitFor();
    await shot(page, 'company-edit-en');
    await page.getByTestId('topbar-theme').click();
    await page.waitForTimeout(300); // the theme's transition
    await shot(page, 'company-edit-en-dark');
    await context.close();
  });

  it('issue 29 item 11: a company operator has no menu entry and gets the reason at the address', async () => {
    const { context, page } = await e2e.newPage();
    await signedIn(page, 'mpapadopoulou', 'Demo-2026!');
    expect(await page.getByTestId('menu-companies').count()).toBe(0);
    await page.goto('/companies');
    await expect
      .poll(() => page.getByTestId('forbidden-message').textContent())
      .toBe('Μόνο ο διαχειριστής της εγκατάστασης (Super Admin) διαχειρίζεται τις εταιρείες.');
    await page.goto('/companies/1/edit');
    await page.getByTestId('forbidden').waitFor();
    await shot(page, 'companies-forbidden-el', { fullPage: false });
    await context.close();
  });
});
