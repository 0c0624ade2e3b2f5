import { readFileSync } from 'node:fs';
import { csvRows, docxTableRows, pdfText, xlsxRows } from '@protocol/server/testing/files';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

let e2e: E2E;
let api: Api;

const people = [
  ['kpapadopoulos', 'Κωνσταντίνος', 'Παπαδόπουλος'],
  ['apapadopoulos', 'Αλέξανδρος', 'Παπαδόπουλος'],
  ['epapadopoulou', 'Ελένη', 'Παπαδοπούλου'],
  ['ageorgiou', 'Αντώνης', 'Γεωργίου'],
  ['skaragianni', 'Σοφία', 'Καραγιάννη'],
] as const;

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  for (const [username, firstname, lastname] of people) {
    const created = await api('POST', '/api/users', {
      username,
      password: 'Operator-2026',
      passwordConfirmation: 'Operator-2026',
      firstname,
      lastname,
      email: `${username}@deya.example`,
      kind: 2,
      superAdmin: false,
      active: true,
    });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => {
  await e2e?.close();
});

const rowNames = (page: Page) =>
  page.getByTestId('data-table-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
const headers = (page: Page) =>
  page
    .locator('[data-testid^="header-"]')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-testid')));

async function openOperators(page: Page, prefix = '') {
  await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/users`);
  await page.getByTestId('data-table-row').first().waitFor();
  // The saved views have loaded (on a first visit the default view is saved and the list reloads).
  await expect
    .poll(() => page.getByTestId('views-button').textContent())
    .toMatch(/(Βασική προβολή|Default view|Χωρίς email)/);
}

async function idsOf(usernames: string[]) {
  const { body } = await api('GET', '/api/users/search?size=-1');
  return usernames.map((u) =>
    String(body.content.find((row: { username: string }) => row.username === u)?.id),
  );
}

async function download(page: Page, testId: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const saved = await (file as Download).path();
  return { name: (file as Download).suggestedFilename(), bytes: readFileSync(saved) };
}

describe('the operators list', () => {
  it('filters by a Greek surname typed without accents and with a final σ', async () => {
    const { context, page } = await e2e.newPage();
    await openOperators(page);
    await page.getByTestId('filter-lastname').fill('παπαδοπουλοσ');
    const expected = await idsOf(['apapadopoulos', 'kpapadopoulos']);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(expected.sort());
    expect(decodeURIComponent(page.url())).toContain('lastname=ci(contains(παπαδοπουλοσ))');
    // A copied link reopens the same list.
    const link = page.url();
    const other = await context.newPage();
    await other.goto(link);
    await expect.poll(async () => (await rowNames(other)).sort()).toEqual(expected.sort());
    await shot(page, 'users-list-filtered-el', { fullPage: false });
    await context.close();
  });

  it('hides a column, sorts, saves a new view, reloads, switches, resets and deletes it', async () => {
    const { context, page } = await e2e.newPage();
    await openOperators(page);
    expect(await headers(page)).toContain('header-email');
    await page.getByTestId('columns-button').click();
    await page.getByTestId('column-toggle-email').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => headers(page)).not.toContain('header-email');
    await page.getByTestId('sort-firstname').click();
    await expect.poll(() => page.getByTestId('sort-firstname').getAttribute('data-sort')).toBe('asc');
    await page.getByTestId('view-modified').waitFor();

    await page.getByTestId('views-button').click();
    await page.getByTestId('view-save-new').click();
    await page.getByTestId('view-title-input').fill('Χωρίς email');
    await page.getByTestId('view-save-confirm').click();
    await page.getByTestId('view-modified').waitFor({ state: 'hidden' });

    await page.reload();
    await page.getByTestId('data-table-row').first().waitFor();
    await expect.poll(() => headers(page)).not.toContain('header-email');
    expect(await page.getByTestId('sort-firstname').getAttribute('data-sort')).toBe('asc');
    await expect.poll(() => page.getByTestId('views-button').textContent()).toContain('Χωρίς email');

    await page.getByTestId('views-button').click();
    await page.getByTestId('view-item').first().waitFor();
    await page.waitForTimeout(400); // the menu's opening transition
    await shot(page, 'users-views-menu-el', { fullPage: false });
    const titles = await page
      .getByTestId('view-item')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-title')));
    expect(titles).toContain('Χωρίς email');
    const other = titles.find((title) => title !== 'Χωρίς email') ?? '';
    await page.locator(`[data-testid="view-item"][data-title="${other}"]`).click();
    await expect.poll(() => headers(page)).toContain('header-email');

    await page.getByTestId('views-button').click();
    await page.locator('[data-testid="view-item"][data-title="Χωρίς email"]').click();
    await expect.poll(() => headers(page)).not.toContain('header-email');
    await page.getByTestId('views-button').click();
    await page.getByTestId('view-reset').click();
    await expect.poll(() => headers(page)).toContain('header-email');
    await expect.poll(() => page.getByTestId('views-button').textContent()).toContain('Χωρίς email');

    await page.getByTestId('views-button').click();
    await page.getByTestId('view-delete').click();
    await page.getByTestId('confirm-dialog-ok').click();
    await page.getByTestId('views-button').click();
    await expect
      .poll(() =>
        page.getByTestId('view-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-title'))),
      )
      .not.toContain('Χωρίς email');
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('exports each format with the view’s columns, Greek headers and the filtered rows', async () => {
    const { context, page } = await e2e.newPage();
    await openOperators(page);
    await page.getByTestId('columns-button').click();
    await page.getByTestId('column-toggle-email').click();
    await page.getByTestId('column-toggle-createdate').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('filter-lastname').fill('ΠΑΠΑΔΟΠΟΥΛ');
    await expect.poll(async () => (await rowNames(page)).length).toBe(4);
    await page.getByTestId('sort-firstname').click();
    await expect.poll(() => page.getByTestId('sort-firstname').getAttribute('data-sort')).toBe('asc');
    await page.getByTestId('data-table-row').first().waitFor();

    const expected = [
      ['Όνομα χρήστη', 'Επώνυμο', 'Όνομα', 'Τύπος', 'Ενεργός'],
      ['apapadopoulos', 'Παπαδόπουλος', 'Αλέξανδρος', 'Χρήστης', 'Ναι'],
      ['epapadopoulou', 'Παπαδοπούλου', 'Ελένη', 'Χρήστης', 'Ναι'],
      ['kpapadopoulos', 'Παπαδόπουλος', 'Κωνσταντίνος', 'Χρήστης', 'Ναι'],
      ['mpapadopoulou', 'Παπαδοπούλου', 'Μαρία', 'Χρήστης', 'Ναι'],
    ];
    const excel = await download(page, 'action-excel');
    expect(excel.name).toMatch(/^Χειριστές_.*\.xlsx$/);
    expect(await xlsxRows(excel.bytes)).toEqual(expected);
    const csv = await download(page, 'action-csv');
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csvRows(csv.bytes)).toEqual(expected);
    const word = await download(page, 'action-word');
    expect(docxTableRows(word.bytes)).toEqual(expected);
    const pdf = await download(page, 'action-pdf');
    const text = await pdfText(pdf.bytes);
    expect(text).toMatch(/Όνομα χρήστη\s+Επώνυμο\s+Όνομα\s+Τύπος\s+Ενεργός/);
    expect(text.indexOf('Αλέξανδρος')).toBeLessThan(text.indexOf('Κωνσταντίνος'));
    expect(text).not.toContain('Γεωργίου');
    await context.close();
  });

  it('prints the list on a print-friendly page, and moves between records with the fast switch', async () => {
    const { context, page } = await e2e.newPage();
    await openOperators(page);
    await page.getByTestId('filter-lastname').fill('παπαδοπουλ');
    await expect.poll(async () => (await rowNames(page)).length).toBe(4);
    const [printPage] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('action-print').click(),
    ]);
    await printPage.getByTestId('print-table').waitFor();
    expect(decodeURIComponent(printPage.url())).toContain('/print?');
    const printed = await printPage.getByTestId('print-table').textContent();
    expect(printed).toContain('Παπαδοπούλου');
    expect(printed).not.toContain('Γεωργίου');
    await shot(printPage, 'users-print-el', { fullPage: false });
    await printPage.close();

    const ids = await rowNames(page);
    await page.getByTestId('data-table-row').first().click();
    await page.waitForURL(`**/users/${ids[0]}/edit`);
    await page.getByTestId('fast-switch-button').click();
    const panel = page.getByTestId('fast-switch-panel');
    await panel.waitFor();
    expect(Math.round((await panel.boundingBox())?.width ?? 0)).toBe(325);
    await expect.poll(() => page.getByTestId('fast-switch-item').count()).toBe(4);
    // Slid in fully: on the right edge of the window.
    await expect
      .poll(async () => {
        const box = await panel.boundingBox();
        return Math.round((box?.x ?? 0) + (box?.width ?? 0));
      })
      .toBe(1366);
    await shot(page, 'users-fast-switch-el', { fullPage: false });
    await page.locator(`[data-testid="fast-switch-item"][data-id="${ids[2]}"]`).click();
    await page.waitForURL(`**/users/${ids[2]}/edit`);
    await context.close();
  });

  it('asks before a mass delete, and the server refuses to delete operators', async () => {
    const { context, page } = await e2e.newPage();
    await openOperators(page);
    const [id] = await idsOf(['ageorgiou']);
    await page.getByTestId(`row-select-${id}`).click();
    await page.getByTestId('action-selected').click();
    await page.getByTestId('selected-panel').waitFor();
    await page.getByTestId('action-delete').click();
    await page.getByTestId('confirm-dialog-ok').click();
    await expect
      .poll(() => page.getByTestId('snackbar').allTextContents())
      .toContainEqual(expect.stringContaining('Η διαγραφή χειριστών δεν επιτρέπεται'));
    expect((await api('GET', `/api/users/${id}`)).status).toBe(200);
    await context.close();
  });

  it('screenshots of the list in English', async () => {
    const { context, page } = await e2e.newPage();
    await openOperators(page, '/en');
    await shot(page, 'users-list-en', { fullPage: false });
    await expect.poll(() => page.getByTestId('views-button').textContent()).toContain('Default view');
    await page.getByTestId('views-button').click();
    await page.getByTestId('view-item').first().waitFor();
    await page.waitForTimeout(400);
    await shot(page, 'users-views-menu-en', { fullPage: false });
    await context.close();
  });
});

// Every DataTable list, held to axe's serious and critical rules and to label in name (WCAG 2.5.3).
for (const prefix of ['', '/en']) {
  describe(`accessibility of the lists (${prefix ? 'en' : 'el'})`, () => {
    let signedIn: Awaited<ReturnType<E2E['newPage']>>;
    beforeAll(async () => {
      signedIn = await e2e.newPage();
      await openSignedIn(signedIn.page, 'admin', ADMIN_PASSWORD, prefix || '/');
      await signedIn.page.getByTestId('dashboard-greeting').waitFor();
    });
    afterAll(async () => {
      await signedIn?.context.close();
    });

    for (const list of ['/users', '/users/groups', '/traders', '/inbox', '/cases']) {
      it(`has no violations on ${list}`, async () => {
        const { page } = signedIn;
        await page.goto(`${prefix}${list}`);
        await page
          .locator('[data-testid="data-table-row"], [data-testid="data-table-empty"]')
          .first()
          .waitFor();
        await expect
          .poll(() => page.getByTestId('views-button').textContent())
          .not.toMatch(/Φόρτωση|Loading/);
        expect(await accessibilityViolations(page)).toEqual([]);
      });
    }
  });
}

describe('protocol books: the row table', () => {
  it('adds, edits, deletes and saves with negative ids, and shows the duplicate-year error', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/parametrics/protocolBook');
    await page.getByTestId('row-table').waitFor();

    // The demo company already has this year's books (with registered documents): work on 2031.
    const demoBooks = (await api('GET', '/api/parametrics/book')).body.length;
    await page.getByTestId('row-add').click();
    await page.getByTestId('cell-descr--1').fill('Εισερχόμενα 2031');
    await page.getByTestId('cell-year--1').fill('2031');
    await page.getByTestId('cell-booktype--1').selectOption('1');
    await page.getByTestId('row-add').click();
    await page.getByTestId('cell-descr--2').fill('Εξερχόμενα 2031');
    await page.getByTestId('cell-year--2').fill('2031');
    await page.getByTestId('cell-booktype--2').selectOption('2');
    await shot(page, 'row-table-new-rows-el', { fullPage: false });
    await page.getByTestId('row-save').click();
    await expect
      .poll(async () => (await api('GET', '/api/parametrics/book')).body.length)
      .toBe(demoBooks + 2);
    const books = (await api('GET', '/api/parametrics/book')).body as { id: number; descr: string }[];
    expect(books.every((b) => b.id > 0)).toBe(true);
    const incoming = books.find((b) => b.descr === 'Εισερχόμενα 2031');
    const outgoing = books.find((b) => b.descr === 'Εξερχόμενα 2031');

    await page.getByTestId(`cell-descr-${incoming?.id}`).fill('Γενικό εισερχόμενο 2031');
    await page.getByTestId(`row-check-${outgoing?.id}`).click();
    await page.getByTestId('row-delete').click();
    const confirm = page.getByTestId('confirm-dialog-ok');
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
    await page.getByTestId('row-save').click();
    const descriptions = async () =>
      (await api('GET', '/api/parametrics/book')).body.map((b: { descr: string }) => b.descr) as string[];
    await expect.poll(descriptions).toContain('Γενικό εισερχόμενο 2031');
    expect(await descriptions()).not.toContain('Εξερχόμενα 2031');
    expect(await descriptions()).toHaveLength(demoBooks + 1);

    await page.getByTestId('row-add').click();
    await page.getByTestId('cell-descr--1').fill('Διπλό βιβλίο');
    await page.getByTestId('cell-year--1').fill('2031');
    await page.getByTestId('cell-booktype--1').selectOption('1');
    await page.getByTestId('row-save').click();
    await expect
      .poll(() => page.getByTestId('snackbar').allTextContents())
      .toContainEqual(expect.stringContaining('Οι τύποι βιβλίων πρέπει να είναι μοναδικοί ανά έτος'));
    await shot(page, 'row-table-duplicate-el', { fullPage: false });
    expect((await api('GET', '/api/parametrics/book')).body).toHaveLength(demoBooks + 1);

    await page.goto('/en/parametrics/protocolBook');
    await page.getByTestId('row-table').waitFor();
    await shot(page, 'row-table-en', { fullPage: false });
    await context.close();
  });
});
