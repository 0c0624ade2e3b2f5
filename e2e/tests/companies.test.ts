import { readFileSync } from 'node:fs';
import { csvRows } from '@protocol/server/testing/files';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
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

async function signedIn(page: Page, username = 'admin', password = ADMIN_PASSWORD) {
  await openSignedIn(page, username, password, '/');
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
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/online_forms`);
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
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/users');
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
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/en/companies');
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

describe('issue 30 item 1: the company in use travels once per request', () => {
  it('switching company in the top bar lists that company’s traders, and switching back the first one’s', async () => {
    const created = await api('POST', '/api/companies', {
      companyname: 'ΔΕΥΑ Άνω Πόλης',
      companytitle: 'ΔΕΥΑ Άνω Πόλης',
      vatnumber: null,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const me = await api('GET', '/api/users/authenticatedUser');
    const first: number = me.body.companies[0].id;
    const second: number = created.body.id;
    expect(first).not.toBe(second);
    // One trader in each company, named alike so one filter finds both were the company ignored.
    const traderOf = async (company: number, fullname: string) => {
      const response = await api.fetch('/api/traders', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Company-Id': String(company) },
        body: JSON.stringify({ individual: false, fullname, traderbanks: [], customFields: {} }),
      });
      expect(response.status).toBe(201);
      return String(((await response.json()) as { id: number }).id);
    };
    const ofFirst = await traderOf(first, 'Υδροδυναμική Πρώτη ΑΕ');
    const ofSecond = await traderOf(second, 'Υδροδυναμική Δεύτερη ΑΕ');

    const { context, page } = await e2e.newPage();
    await signedIn(page);
    // The calls of the signed-in pages, the company's now known.
    const asked: { url: string; company: string | undefined }[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/'))
        asked.push({ url: request.url(), company: request.headers()['x-company-id'] });
    });
    await page.goto('/traders');
    await page.getByTestId('data-table').waitFor();
    await page.getByTestId('filter-fullname').fill('υδροδυναμικη');
    const rows = () =>
      page.getByTestId('data-table-row').evaluateAll((items) => items.map((r) => r.getAttribute('data-id')));
    await expect.poll(rows).toEqual([ofFirst]);

    await page.getByTestId('company-switcher').click();
    await page.getByTestId(`company-option-${second}`).click();
    await expect.poll(rows).toEqual([ofSecond]);
    expect(await page.getByTestId('company-switcher').getAttribute('data-company-id')).toBe(String(second));
    expect(new URL(page.url()).pathname).toBe('/traders');
    await shot(page, 'company-switched-traders-el', { fullPage: false });

    const before = asked.length;
    await page.getByTestId('company-switcher').click();
    await page.getByTestId(`company-option-${first}`).click();
    await expect.poll(rows).toEqual([ofFirst]);

    // Every call named its company in the header, none in the address; the lists asked each company's.
    const searches = asked.filter((item) => new URL(item.url).pathname === '/api/traders/search');
    expect(new Set(searches.map((item) => item.company))).toEqual(new Set([String(first), String(second)]));
    expect(asked.filter((item) => item.url.includes('companyid='))).toEqual([]);
    // Only what the app loads before it knows the company goes without one.
    const beforeTheCompany = ['/api/installation/env', '/api/users/authenticatedUser'];
    const unnamed = asked.filter((item) => item.company === undefined);
    expect(unnamed.filter((item) => !beforeTheCompany.includes(new URL(item.url).pathname))).toEqual([]);
    // Once switched back, no call still names the second company.
    expect(asked.slice(before).filter((item) => item.company !== String(first))).toEqual([]);
    await context.close();
  });
});
