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

describe('who may do what', () => {
  it('an admin creates a read-only protocol group and an operator in it; the operator sees no settings', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/users/create');
    // The operator first, then the group with the operator as its member.

    await page.getByTestId('user-username').fill('reader');
    await page.getByTestId('user-firstname').fill('Ρένα');
    await page.getByTestId('user-lastname').fill('Αναγνώστου');
    await page.getByTestId('user-password').fill('Reader-2026');
    await page.getByTestId('user-passwordConfirmation').fill('Reader-2026');
    await page.getByTestId('user-save').click();
    await page.waitForURL(/\/users\/\d+\/edit$/);

    await page.goto('/users/groups/create');
    await page.getByTestId('group-name').fill('Μόνο ανάγνωση πρωτοκόλλου');
    await page.getByTestId('perm-protocol-read').check();
    await page.getByTestId('group-members').fill('Αναγνώστου');
    await page.getByRole('option', { name: /Αναγνώστου/ }).click();
    await shot(page, 'group-matrix-el', { fullPage: false });
    await page.getByTestId('group-save').click();
    await page.getByTestId('confirm-dialog-ok').click();
    await page.waitForURL(/\/users\/groups\/\d+\/edit$/);
    const groups = await api('GET', '/api/users/groups/search');
    const group = groups.body.content.find((g: { name: string }) => g.name === 'Μόνο ανάγνωση πρωτοκόλλου');
    expect(group).toMatchObject({ permissionCount: 1, memberCount: 1 });
    await page.goto('/en/users/groups/create');
    await page.getByTestId('perm-users-admin').waitFor();
    await shot(page, 'group-matrix-en', { fullPage: false });
    await context.close();

    const reader = await e2e.newPage();
    await openSignedIn(reader.page, 'reader', 'Reader-2026', '/');
    await reader.page.getByTestId('dashboard-greeting').waitFor();
    await reader.page.getByTestId('side-menu').waitFor();
    expect(await reader.page.getByTestId('menu-settings').count()).toBe(0);
    expect(await reader.page.getByTestId('menu-users').count()).toBe(0);
    await reader.page.goto('/settings/banks');
    await reader.page.getByTestId('forbidden').waitFor();
    await reader.page.goto('/settings/company');
    await reader.page.getByTestId('forbidden').waitFor();
    await reader.context.close();
  });

  it('switches the company in the top bar and stays on the same page', async () => {
    const created = await api('POST', '/api/companies', {
      companyname: 'Δήμος Αγίας Ελένης',
      companytitle: 'Δήμος Αγίας Ελένης',
      vatnumber: null,
    });
    expect(created.status).toBe(201);
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/settings/general_settings');

    await page.getByTestId('row-table').waitFor();
    await page.getByTestId('company-switcher').click();
    await page.getByTestId(`company-option-${created.body.id}`).click();
    await expect
      .poll(() => page.getByTestId('company-switcher').textContent())
      .toContain('Δήμος Αγίας Ελένης');
    expect(new URL(page.url()).pathname).toBe('/settings/general_settings');
    // The new company has no settings yet.
    await expect.poll(() => page.getByTestId('row-table-row').count()).toBe(0);
    await context.close();
  });
});

describe('settings screens', () => {
  it('edits a general setting', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/settings/general_settings');

    await page.getByTestId('row-table').waitFor();
    const settings = (await api('GET', '/api/general_settings')).body as { id: number; parName: string }[];
    const deyaAa = settings.find((s) => s.parName === 'gen.deya_aa');
    await page.getByTestId(`cell-parValue-${deyaAa?.id}`).fill('7');
    await page.getByTestId('row-save').click();
    await expect
      .poll(
        async () =>
          ((await api('GET', '/api/general_settings')).body as { parName: string; parValue: string }[]).find(
            (s) => s.parName === 'gen.deya_aa',
          )?.parValue,
      )
      .toBe('7');
    await shot(page, 'settings-general-el', { fullPage: false });
    await context.close();
  });

  it('shows the error of a bank with a bad BIC', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/settings/banks');

    await page.getByTestId('row-table').waitFor();
    await page.getByTestId('row-add').click();
    await page.getByTestId('cell-name--1').fill('Τράπεζα Δοκιμής');
    await page.getByTestId('cell-bic--1').fill('ABC');
    await page.getByTestId('row-save').click();
    await expect.poll(() => page.getByTestId('cell-error-bic--1').textContent()).toContain('BIC');
    await shot(page, 'settings-banks-error-el', { fullPage: false });
    const banks = (await api('GET', '/api/settings/banks')).body as { name: string }[];
    expect(banks.map((b) => b.name)).not.toContain('Τράπεζα Δοκιμής');
    await page.goto('/en/settings/banks');
    await page.getByTestId('row-table').waitFor();
    await shot(page, 'settings-banks-en', { fullPage: false });
    await context.close();
  });

  it('issue 29 item 14: refuses a case type named twice, marking the rows, in both languages', async () => {
    const before = (await api('GET', '/api/protocol/case_types')).body as { descr: string }[];
    const taken = before[0]?.descr ?? '';
    for (const [prefix, message, picture] of [
      ['', 'Η τιμή υπάρχει ήδη σε άλλη γραμμή', 'settings-case-types-duplicate-el'],
      ['/en', 'The value is already used by another row', 'settings-case-types-duplicate-en'],
    ] as const) {
      const { context, page } = await e2e.newPage(prefix ? { locale: 'en-GB' } : {});
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/settings/case_types`);

      await page.getByTestId('row-table').waitFor();
      await page.getByTestId('row-add').click();
      await page.getByTestId('cell-descr--1').fill(taken);
      await page.getByTestId('row-save').click();
      await expect.poll(() => page.getByTestId('cell-error-descr--1').textContent()).toContain(message);
      await shot(page, picture, { fullPage: false });
      await context.close();
    }
    // Nothing was saved.
    expect((await api('GET', '/api/protocol/case_types')).body).toEqual(before);
  });

  it('shows the banks to a company administrator read-only: they are shared by every company', async () => {
    const created = await api('POST', '/api/users?companyid=1', {
      username: 'deyaadmin',
      password: 'Deya-Admin-2026',
      passwordConfirmation: 'Deya-Admin-2026',
      firstname: 'Ελένη',
      lastname: 'Διαχειρίστρια',
      email: 'deyaadmin@deya.example',
      kind: 1,
      superAdmin: false,
      active: true,
    });
    expect(created.status).toBe(201);
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'deyaadmin', 'Deya-Admin-2026', '/settings/banks');
    await page.getByTestId('row-table').waitFor();
    await expect
      .poll(() => page.getByTestId('row-table-read-only').textContent())
      .toContain('μόνο ο διαχειριστής συστήματος');
    expect(await page.getByTestId('row-save').count()).toBe(0);
    expect(await page.getByTestId('row-add').count()).toBe(0);
    await shot(page, 'settings-banks-shared-el', { fullPage: false });
    // Their own company's tables stay editable.
    await page.goto('/settings/departments');
    await page.getByTestId('row-save').waitFor();
    expect(await page.getByTestId('row-table-read-only').count()).toBe(0);
    await context.close();
  });

  it('explains the periodicity rules', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/en/settings/periodicity');

    await page.getByTestId('row-table').waitFor();
    await page.getByTestId('row-add').click();
    await page.getByTestId('cell-periodicityType--1').selectOption('4');
    await page.getByTestId('cell-startyear--1').fill('1800');
    await page.getByTestId('cell-startperiod--1').fill('5');
    await page.getByTestId('row-save').click();
    await expect.poll(() => page.getByTestId('cell-error-startyear--1').textContent()).toContain('1900');
    await page.getByTestId('cell-startyear--1').fill('2026');
    await page.getByTestId('row-save').click();
    // Every 4 months makes 3 periods a year: start period 5 is refused by the server's rule.
    await expect.poll(() => page.getByTestId('cell-error-startperiod--1').textContent()).toContain('3');
    await shot(page, 'settings-periodicity-en', { fullPage: false });
    await page.getByTestId('cell-startperiod--1').fill('2');
    await page.getByTestId('row-save').click();
    await expect
      .poll(async () => (await api('GET', '/api/water_service/parametrics/periodicity')).body)
      .toEqual(
        // Beside the demo's row, which the water service's invoice policy uses.
        expect.arrayContaining([
          expect.objectContaining({
            periodicityType: { id: 4 },
            periods: 3,
            startyear: 2026,
            startperiod: 2,
          }),
        ]),
      );
    await context.close();
  });
});
