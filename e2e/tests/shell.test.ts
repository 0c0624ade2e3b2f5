import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, signIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('signing in and the shell', () => {
  it('signs in with the Greek UI and greets the operator on the dashboard', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/');
    await page.waitForURL('**/login');
    expect(await page.getAttribute('html', 'lang')).toBe('el');
    expect(await page.title()).toBe('Protocol');
    await shot(page, 'login-el-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await expect
      .poll(() => page.getByTestId('dashboard-greeting').textContent())
      .toContain('Διαχειριστής Συστήματος');
    expect(new URL(page.url()).pathname).toBe('/');
    await shot(page, 'dashboard-el-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  it('shows the Greek message for a wrong password', async () => {
    const { context, page } = await e2e.newPage();
    await signIn(page, 'admin', 'not-the-password');
    await expect
      .poll(() => page.getByTestId('login-error').textContent())
      .toContain('Λάθος όνομα χρήστη ή κωδικός πρόσβασης');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('switches to English: the URL gains /en and the choice survives a reload', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.getByTestId('topbar-language').click();
    await page.getByTestId('lang-en').click();
    await page.waitForURL(/\/en\/?$/);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.reload();
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/en\/?$/);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    // A Greek path with the English choice in the cookie opens in English.
    await page.goto('/about');
    await page.waitForURL('**/en/about');
    await page.getByTestId('about-components').waitFor();
    await shot(page, 'about-en-light');
    await page.goto('/en');
    await page.getByTestId('dashboard-greeting').waitFor();
    await shot(page, 'dashboard-en-light');
    await context.close();
  });

  it('keeps the dark theme and the mini menu across a reload', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByTestId('topbar-theme').click();
    await expect.poll(background).not.toBe(light);
    const dark = await background();
    await page.getByTestId('topbar-menu-toggle').click();
    const menu = page.getByTestId('side-menu');
    await expect.poll(() => menu.getAttribute('data-mini')).toBe('true');
    await expect.poll(async () => Math.round((await menu.boundingBox())?.width ?? 0)).toBe(43);
    await page.reload();
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(await background()).toBe(dark);
    expect(await page.getByTestId('side-menu').getAttribute('data-mini')).toBe('true');
    await shot(page, 'dashboard-el-dark-mini');
    await page.getByTestId('topbar-menu-toggle').click();
    await expect.poll(async () => Math.round((await menu.boundingBox())?.width ?? 0)).toBe(230);
    await shot(page, 'dashboard-el-dark');
    await page.goto('/en');
    await page.getByTestId('dashboard-greeting').waitFor();
    await shot(page, 'dashboard-en-dark');
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-menu-logout').click();
    await page.waitForURL('**/login');
    await shot(page, 'login-en-dark');
    await context.close();
  });

  it('takes a signed-out deep link through the login and back to it', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/about?tab=licences');
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-username').fill('mpapadopoulou');
    await page.getByTestId('login-password').fill('Demo-2026!');
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/about?tab=licences');
    // Signed in, the login page sends the operator home.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('shows "Page not found." for an unknown page, in each language', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/en/does-not-exist');
    await expect.poll(() => page.getByTestId('not-found').textContent()).toContain('Page not found.');
    expect(await page.getByTestId('not-found').textContent()).toContain('Back to the home page');
    await shot(page, 'not-found-en');
    await page.goto('/does-not-exist');
    await expect.poll(() => page.getByTestId('not-found').textContent()).toContain('Η σελίδα δεν βρέθηκε.');
    await shot(page, 'not-found-el');
    await context.close();
  });

  it('lays out the shell with the sizes of the spec: top bar 50 px, app bar 43 px, menu 230 px', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    const height = async (selector: string) =>
      Math.round((await page.locator(selector).first().boundingBox())?.height ?? 0);
    expect(await height('header')).toBe(50);
    expect(await height('[data-testid="app-bar"]')).toBe(43);
    expect(Math.round((await page.getByTestId('side-menu').boundingBox())?.width ?? 0)).toBe(230);
    await context.close();
  });

  it('reloads once when a page’s code cannot be loaded, then shows the error page', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.route(/\/assets\/AboutPage-[\w-]+\.js$/, (route) => route.abort());
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    await page.getByTestId('dashboard-tile-about').click();
    const notFound = page.getByTestId('not-found');
    await notFound.waitFor();
    // One reload, and the second failure within 60 s shows the page instead of reloading again.
    expect(loads).toBe(1);
    expect(await notFound.getAttribute('data-status')).toBe('503');
    await page.unroute(/AboutPage/);
    await context.close();
  });

  it('shows an offline indicator when the network goes away', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    // Every chunk of the dashboard loaded first: a chunk cut off by the lost connection reloads the
    // page (see the test above), and before the service worker controls it that reload is Chromium's
    // own offline page, without the app (a loaded full run met it: onLine false, no indicator).
    await page.waitForLoadState('networkidle');
    // In a full run Chromium sometimes kept navigator.onLine true after one setOffline for a page its
    // service worker controls (as in readouts-field), and it reaches the page only some time after
    // the call: the page is read every 250 ms and the emulation set again every 5 s (setting it at
    // every read reset it before the page could see it). What is tested is that the app shows the
    // indicator once the browser says offline.
    await context.setOffline(true);
    let reads = 0;
    await expect
      .poll(
        async () => {
          reads += 1;
          if (reads % 20 === 0) {
            await context.setOffline(false);
            await context.setOffline(true);
          }
          return page.evaluate(() => navigator.onLine);
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(false);
    await page.getByTestId('offline-indicator').waitFor({ state: 'visible' });
    await context.setOffline(false);
    await page.getByTestId('offline-indicator').waitFor({ state: 'hidden' });
    await context.close();
  });

  it('changes the password from the account menu, signs out and signs in with the new one', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'gnikolaou', 'Demo-2026!', '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-menu-change-password').click();
    const dialog = page.getByTestId('change-password-dialog');
    await dialog.waitFor();
    await page.getByTestId('change-password-current').fill('Λάθος-2026');
    await page.getByTestId('change-password-password').fill('Καινούργιος-2026');
    await page.getByTestId('change-password-confirm').fill('Καινούργιος-2027');
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => dialog.textContent()).toContain('Οι κωδικοί δεν ταιριάζουν');
    await shot(page, 'change-password-mismatch-el');
    await page.getByTestId('change-password-confirm').fill('Καινούργιος-2026');
    await page.getByTestId('change-password-submit').click();
    // A stolen session is not enough: the current password is checked.
    await expect.poll(() => dialog.textContent()).toContain('Ο τρέχων κωδικός δεν είναι σωστός');
    await shot(page, 'change-password-wrong-current-el');
    await page.getByTestId('change-password-current').fill('Demo-2026!');
    await page.getByTestId('change-password-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('snackbar').first().waitFor();
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-menu-logout').click();
    await page.waitForURL('**/login');
    await signIn(page, 'gnikolaou', 'Demo-2026!');
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('Λάθος όνομα χρήστη');
    await signIn(page, 'gnikolaou', 'Καινούργιος-2026');
    await expect
      .poll(() => page.getByTestId('dashboard-greeting').textContent())
      .toContain('Γιώργος Νικολάου');
    await context.close();
  });

  it('opens the own account from the account menu', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'mpapadopoulou', 'Demo-2026!', '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-menu-account').click();
    await page.waitForURL(/\/users\/\d+\/edit$/);
    await expect.poll(() => page.locator('main').textContent()).toContain('mpapadopoulou');
    await shot(page, 'account-el-light');
    await context.close();
  });
});

describe('screenshots of sign-in and dashboard in both languages and themes', () => {
  for (const lang of ['el', 'en'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${lang} ${theme}`, async () => {
        const { context, page } = await e2e.newPage();
        const host = new URL(e2e.baseUrl).hostname;
        await context.addCookies([
          { name: 'theme', value: theme, domain: host, path: '/' },
          { name: 'locale', value: lang, domain: host, path: '/' },
        ]);
        const prefix = lang === 'en' ? '/en' : '';
        await page.goto(`${prefix}/login`);
        await page.getByTestId('login-submit').waitFor();
        await page.waitForTimeout(700); // the loading bar's fade-out
        await shot(page, `screen-login-${lang}-${theme}`);
        await signIn(page, 'mpapadopoulou', 'Demo-2026!', `${prefix}/login`);
        await page.getByTestId('dashboard-greeting').waitFor();
        await page.waitForTimeout(700);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        await shot(page, `screen-dashboard-${lang}-${theme}`);
        await context.close();
      });
    }
  }
});

describe('single sign-on', () => {
  it('signs in through the identity provider and signs out of it', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/about');
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-sso').click();
    await page.waitForURL(`${e2e.idp.issuer}/**`);
    await page.locator('input[name="login"]').fill('mpapadopoulou');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    const consent = page.locator('button[type="submit"]', { hasText: 'Continue' });
    await page.waitForURL(
      (url) => url.href.startsWith(e2e.baseUrl) || url.pathname.includes('/interaction/'),
    );
    if (page.url().includes('/interaction/')) await consent.click();
    await page.waitForURL(`${e2e.baseUrl}/about`);
    await page.goto('/');
    await expect
      .poll(() => page.getByTestId('dashboard-greeting').textContent())
      .toContain('Μαρία Παπαδοπούλου');
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-menu-logout').click();
    // The provider asks to confirm its own sign-out, then returns to /logout and the login page.
    await page.waitForURL(`${e2e.idp.issuer}/**`);
    await page.locator('button[autofocus], button[type="submit"]').first().click();
    await page.waitForURL(`${e2e.baseUrl}/login**`);
    await page.goto('/');
    await page.waitForURL(/\/login/);
    await context.close();
  });
});
