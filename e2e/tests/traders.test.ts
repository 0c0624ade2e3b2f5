import {
  FAKE_AFM,
  FAKE_REGISTRY_PASSWORD,
  FAKE_REGISTRY_USERNAME,
} from '@protocol/server/testing/fake-registry';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

let e2e: E2E;
let api: Api;

/** A valid ΑΦΜ from eight digits: the glossary's check digit. */
function afm(eight: string): string {
  const digits = [...eight].map(Number);
  const sum = digits.reduce((s, d, i) => s + d * 2 ** (8 - i), 0);
  return `${eight}${(sum % 11) % 10}`;
}

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  const [company] = (await api('GET', '/api/companies')).body;
  const saved = await api('PUT', `/api/companies/${company.id}`, {
    companyname: company.companyname,
    companytitle: company.companytitle,
    vatnumber: afm('09999999'),
    credentials: { registryUsername: FAKE_REGISTRY_USERNAME, registryPassword: FAKE_REGISTRY_PASSWORD },
  });
  expect(saved.status).toBe(200);
  const field = await api('POST', '/api/settings/custom_fields', [
    {
      id: null,
      entity: 'traders',
      key: 'water_zone',
      labelEl: 'Ζώνη ύδρευσης',
      labelEn: 'Water zone',
      type: 'text',
      customTableId: null,
      required: false,
      order: 1,
    },
  ]);
  expect(field.status, JSON.stringify(field.body)).toBe(200);
});
afterAll(async () => {
  await e2e?.close();
});

async function openCreate(page: Page) {
  await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/traders/create');
  await page.getByTestId('trader-vatnumber').waitFor();
}

describe('traders', () => {
  it('creates a trader with a bank account and a custom field', async () => {
    const { context, page } = await e2e.newPage();
    await openCreate(page);
    await page.getByTestId('trader-vatnumber').fill(afm('12345678'));
    await page.getByTestId('trader-fullname').fill('Οικονόμου Τεχνική ΟΕ');
    await page.getByTestId('trader-bank-add').click();
    await page.getByTestId('trader-bank-iban-0').fill('GR1601101250000000012300695');
    await page.getByTestId('trader-bank-bic-0').fill('ETHNGRAA');
    await page.getByTestId('trader-cf-water_zone').fill('Βόρεια ζώνη');
    await page.getByTestId('trader-save').click();
    await page.waitForURL(/\/traders\/\d+\/edit$/);
    const id = Number(page.url().match(/traders\/(\d+)\/edit/)?.[1]);
    const trader = (await api('GET', `/api/traders/${id}`)).body;
    expect(trader).toMatchObject({
      fullname: 'Οικονόμου Τεχνική ΟΕ',
      customFields: { water_zone: 'Βόρεια ζώνη' },
      traderbanks: [expect.objectContaining({ iban: 'GR1601101250000000012300695', bic: 'ETHNGRAA' })],
    });
    await shot(page, 'trader-edit-el');
    await context.close();
  });

  it('shows a custom field as a column of the traders list and filters it, accents aside', async () => {
    const made = await api('POST', '/api/traders', {
      fullname: 'Ορεινή Ύδρευση ΑΕ',
      individual: false,
      customFields: { water_zone: 'Ορεινή ζώνη' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/traders');
    await page.getByTestId('data-table').waitFor();
    await page.getByTestId('columns-button').click();
    await page.getByTestId('column-toggle-custom.water_zone').click();
    await page.keyboard.press('Escape');
    const header = page.getByTestId('header-custom.water_zone');
    await header.waitFor();
    expect(await header.textContent()).toContain('Ζώνη ύδρευσης');
    await page.getByTestId('filter-custom.water_zone').fill('ορεινη');
    await expect
      .poll(() =>
        page.getByTestId('data-table-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
      )
      .toEqual([String(made.body.id)]);
    expect(await page.getByTestId('data-table-row').textContent()).toContain('Ορεινή ζώνη');
    await shot(page, 'traders-list-custom-field-el');
    await context.close();
  });

  it('shows the messages of an invalid ΑΦΜ and IBAN', async () => {
    const { context, page } = await e2e.newPage();
    await openCreate(page);
    await page.getByTestId('trader-vatnumber').fill('123456789');
    await page.getByTestId('trader-fullname').fill('Λάθος Στοιχεία ΑΕ');
    await page.getByTestId('trader-bank-add').click();
    await page.getByTestId('trader-bank-iban-0').fill('GR1601101250000000012300696');
    await page.getByTestId('trader-save').click();
    await expect.poll(() => page.locator('body').textContent()).toContain('Ο ΑΦΜ δεν είναι έγκυρος');
    await expect.poll(() => page.locator('body').textContent()).toContain('Το IBAN δεν είναι έγκυρο');
    expect(page.url()).toContain('/traders/create');
    await shot(page, 'trader-invalid-el');
    await context.close();
  });

  it("checks the server's own rules: name lengths and a free-text postal code (one schema, no drift)", async () => {
    const { context, page } = await e2e.newPage();
    await openCreate(page);
    await page.getByTestId('trader-individual').check();
    await page.getByTestId('trader-lastname').fill('Λ'.repeat(151));
    await page.getByTestId('trader-firstname').fill('Νίκος');
    await page.getByTestId('trader-zipcode').fill('BT7 1NN');
    await page.getByTestId('trader-save').click();
    await expect
      .poll(() => page.locator('body').textContent())
      .toContain('Το πεδίο δεν μπορεί να έχει περισσότερους από 150 χαρακτήρες');
    expect(page.url()).toContain('/traders/create');
    await page.getByTestId('trader-lastname').fill('Λ'.repeat(150));
    await page.getByTestId('trader-save').click();
    await page.waitForURL(/\/traders\/\d+\/edit$/);
    const id = Number(page.url().match(/traders\/(\d+)\/edit/)?.[1]);
    expect((await api('GET', `/api/traders/${id}`)).body).toMatchObject({
      lastname: 'Λ'.repeat(150),
      zipcode: 'BT7 1NN',
    });
    await page.goto('/traders/create');
    await page.getByTestId('trader-fullname').fill('Ε'.repeat(300));
    await page.getByTestId('trader-save').click();
    await page.waitForURL(/\/traders\/\d+\/edit$/);
    await context.close();
  });

  it('looks up an ΑΦΜ at the tax registry and overwrites filled fields after a warning', async () => {
    const { context, page } = await e2e.newPage();
    await openCreate(page);
    await page.getByTestId('trader-fullname').fill('Προσωρινή επωνυμία');
    await page.getByTestId('trader-vatnumber').fill(FAKE_AFM.found);
    await page.getByTestId('trader-lookup').click();
    await page.getByTestId('trader-lookup-overwrites').waitFor();
    await shot(page, 'trader-lookup-warning-el');
    await page.getByTestId('confirm-dialog-ok').click();
    await expect
      .poll(() => page.getByTestId('trader-fullname').inputValue())
      .toBe('ΥΔΡΟΤΕΧΝΙΚΗ ΕΛΛΑΔΟΣ ΑΝΩΝΥΜΗ ΕΤΑΙΡΕΙΑ');
    expect(e2e.registry.requests.at(-1)).toContain(FAKE_AFM.found);
    await context.close();
  });

  it('finds a trader from the list with an accent-less search, and merges two traders', async () => {
    const make = (fullname: string, vatnumber: string) =>
      api('POST', '/api/traders', {
        fullname,
        vatnumber,
        individual: false,
        active: true,
        traderbanks: [],
        customFields: {},
      });
    const first = await make('Ζαχαρίου Ύδρευση ΙΚΕ', afm('22334455'));
    const second = await make('ΖΑΧΑΡΙΟΥ ΥΔΡΕΥΣΗ Ι.Κ.Ε.', afm('22334455'));
    expect([first.status, second.status], JSON.stringify(first.body)).toEqual([201, 201]);

    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/traders');
    await page.getByTestId('data-table').waitFor();
    await page.getByTestId('table-search').fill('ζαχαριου υδρευση');
    await expect
      .poll(() =>
        page
          .getByTestId('data-table-row')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')).sort()),
      )
      .toEqual([String(first.body.id), String(second.body.id)].sort());
    await shot(page, 'traders-list-el');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByTestId(`row-select-${first.body.id}`).click();
    await page.getByTestId(`row-select-${second.body.id}`).click();
    await page.getByTestId('merge-open').click();
    await page.getByTestId('merge-dialog').waitFor();
    await page.getByTestId(`merge-survivor-${first.body.id}`).check();
    await shot(page, 'traders-merge-el');
    await page.getByTestId('merge-confirm').click();
    const confirm = page.getByTestId('confirm-dialog-ok');
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
    await expect.poll(async () => (await api('GET', `/api/traders/${second.body.id}`)).status).toBe(404);
    expect((await api('GET', `/api/traders/${first.body.id}`)).status).toBe(200);
    await context.close();
  });
});
