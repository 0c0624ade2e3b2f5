import { periodNameIn } from '@protocol/contracts';
import { pdfText } from '@protocol/server/testing/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { pdfShot } from '../support/pdf.ts';
import { shot } from '../support/shot.ts';
import { enterReading, installMeter, newConsumer, readoutRoutes, runAndFinalize } from '../support/water.ts';

/**
 * Sending the bills (issue 17) as the billing clerk does it: a finalized run of two routes; on
 * /invoices/runs the run's sending dialog e-mails route 001's bills to the utility's mail server
 * (each with its PDF), prints the rest in one merged PDF in route order, and completes the route;
 * on /invoices the selected bill of route 002 is e-mailed. In Greek and in English.
 */
let e2e: E2E;
let api: Api;
const consumerIds: Record<string, number> = {};

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  const routes = await readoutRoutes(api);
  // 711 and 712 have addresses, 713 and 714 are printed (714 first in the route); 715 is on route 002.
  const plan: [route: string, number: string, email: string | null, position: number][] = [
    ['001', '711', 'maria711@example.org', 1],
    ['001', '712', 'nikos712@example.org', 2],
    ['001', '713', null, 4],
    ['001', '714', null, 3],
    ['002', '715', 'eleni715@example.org', 1],
  ];
  for (const [route, number, email, position] of plan) {
    const consumerId = await newConsumer(api, {
      owner: { individual: true, lastname: `Αποστολή ${number}`, firstname: 'Μαρία', email },
      parts: ['01', route, number],
      supplyAddress: `Ερμού ${number}, Αγία Ελένη`,
    });
    consumerIds[number] = consumerId;
    await e2e.sql(`UPDATE water_consumers SET route_position = ${position} WHERE id = ${consumerId}`);
    await installMeter(api, consumerId, {
      serialNumber: `SND-${number}`,
      initialReading: 500,
      date: '2025-12-01',
    });
    await enterReading(api, {
      routeId: routes[route] ?? 0,
      year: 2026,
      period: 1,
      consumerId,
      reading: 500 + Number(number) - 700,
      readOn: '2026-04-22',
    });
  }
  await runAndFinalize(api, [routes['001'], routes['002']], '2026-05-10', 5);
}, 180_000);
afterAll(async () => {
  await e2e?.close();
});

describe('sending the bills', () => {
  it('e-mails a route with the PDFs, prints the rest in route order and completes it, in Greek', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/invoices/runs');
    await page.getByTestId('billing-run-sending').first().click();
    const route = page.locator('[data-testid="billing-sending-route"][data-route="001"]');
    await route.waitFor();
    expect(await route.getByTestId('billing-sending-hold').textContent()).toBe('4');
    expect(await route.getByTestId('billing-sending-withEmail').textContent()).toBe('2 με e-mail');
    await route.getByTestId('billing-sending-email').click();
    await page.getByText('Σε αποστολή: 2 με e-mail, 2 για εκτύπωση.').waitFor();
    const mailed = page.locator('[data-testid="billing-dispatch"][data-kind="email"]');
    await expect.poll(() => mailed.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    expect(await mailed.getByTestId('billing-dispatch-result').textContent()).toBe('2 e-mail εστάλησαν');
    // The utility's mail server holds the two bills, each with its PDF.
    expect(e2e.mail.received.map((m) => m.to[0]).sort()).toEqual([
      'maria711@example.org',
      'nikos712@example.org',
    ]);
    for (const message of e2e.mail.received) {
      expect(message.parsed.subject).toMatch(/^Λογαριασμός ύδρευσης ΛΥΔ-\d+\/2026/);
      const [attachment] = message.parsed.attachments;
      expect(attachment?.mimeType).toBe('application/pdf');
      const text = await pdfText(Buffer.from(attachment?.content as ArrayBuffer));
      expect(text).toContain(message.to[0]?.startsWith('maria') ? 'Αποστολή 711' : 'Αποστολή 712');
      expect(text).toMatch(/RF\d{2}/);
    }
    expect(await route.getByTestId('billing-sending-toPrint').textContent()).toBe('2');
    // The merged PDF of what is left, in route order: 714 (position 3) before 713 (position 4).
    await route.getByTestId('billing-sending-print').click();
    const printed = page.locator('[data-testid="billing-dispatch"][data-kind="print"]');
    await expect.poll(() => printed.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    await printed.getByTestId('billing-dispatch-file').waitFor();
    await expect.poll(() => route.getByTestId('billing-sending-sent').textContent()).toBe('4');
    await page.waitForTimeout(800);
    await shot(page, 'billing-sending-el');
    expect(await accessibilityViolations(page)).toEqual([]);
    const runId = ((await api('GET', '/api/billing/runs')).body as { id: number }[])[0]?.id;
    const sending = (await api('GET', `/api/billing/runs/${runId}/sending`)).body;
    const file = await api.fetch(`/api/billing/dispatches/${sending.dispatches[0].id}/file`);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await file.arrayBuffer());
    const text = await pdfText(bytes);
    expect(text.match(/Λογαριασμός ύδρευσης – αποχέτευσης/g)).toHaveLength(2);
    expect(text.indexOf('Αποστολή 714')).toBeGreaterThan(-1);
    expect(text.indexOf('Αποστολή 714')).toBeLessThan(text.indexOf('Αποστολή 713'));
    pdfShot(bytes, 'billing-print-route', 70);
    // Posted: the route's sending is completed.
    await route.getByTestId('billing-sending-complete').click();
    await expect.poll(() => route.getByTestId('billing-sending-completed').textContent()).toBe('4');
    await context.close();
  }, 180_000);

  it('e-mails the selected bill from the bills list, and shows the run in English', async () => {
    const { context, page } = await e2e.newPage({ locale: 'en-GB' });
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/en/invoices');
    await page.getByTestId('billing-invoices-header').waitFor();
    await page.getByTestId('data-table-row').first().waitFor();
    const bills = (await api('GET', '/api/billing/bills/search?size=50')).body.content as {
      id: number;
      code: string;
    }[];
    const bill = bills.find((b) => b.code.endsWith('715'));
    await page.getByTestId(`row-select-${bill?.id}`).click();
    await page.getByTestId('billing-invoices-send').click();
    await page.getByText('Sending: 1 by e-mail, 0 to print.').waitFor();
    await expect.poll(() => e2e.mail.received.length, { timeout: 30_000 }).toBe(3);
    expect(e2e.mail.received[2]?.to).toEqual(['eleni715@example.org']);
    await expect
      .poll(async () => (await api('GET', `/api/billing/bills/${bill?.id}`)).body.sendStatus, {
        timeout: 30_000,
      })
      .toBe(2);
    await page.reload();
    await page.getByTestId('data-table-row').first().waitFor();
    await shot(page, 'billing-invoices-sent-en');
    // The sending of the chosen bill, outside the run: listed on the bills list, its bill to close.
    await page.getByTestId('billing-invoices-sendings').click();
    const sendings = page.getByTestId('billing-chosen-sendings');
    await sendings
      .locator('[data-testid="billing-dispatch"][data-kind="email"][data-state="done"]')
      .waitFor();
    expect(await sendings.getByTestId('billing-dispatch-result').first().textContent()).toBe('1 e-mail sent');
    expect(await sendings.getByTestId('billing-dispatch-complete').textContent()).toBe('Complete (1)');
    await shot(page, 'billing-chosen-sendings-en');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('billing-chosen-close').click();
    await page.goto('/en/invoices/runs');
    await page.getByTestId('billing-run-sending').first().click();
    await page.locator('[data-testid="billing-sending-route"][data-route="002"]').waitFor();
    await page.waitForTimeout(800);
    await shot(page, 'billing-sending-en');
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it("shows the consumer's bills on the card's Bills tab, each opening its PDF, in Greek and English", async () => {
    for (const language of ['el', 'en'] as const) {
      const { context, page } = await e2e.newPage(language === 'en' ? { locale: 'en-GB' } : {});
      const prefix = language === 'en' ? '/en' : '';
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/consumers/${consumerIds['711']}/edit`);
      await page.getByRole('tab', { name: language === 'en' ? 'Bills' : 'Λογαριασμοί' }).click();
      const row = page.getByTestId('consumer-bill').first();
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      // The period in the page's language (issue 32 item 6).
      expect(text).toContain(periodNameIn('Α΄ τετράμηνο 2026', language));
      expect(text).toMatch(/ΛΥΔ-\d+\/2026/);
      expect(text).toContain(language === 'en' ? 'Completed' : 'Ολοκληρώθηκε');
      expect(text).toMatch(/RF\d{2} \d{4}/);
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        row.getByTestId('consumer-bill-pdf').click(),
      ]);
      expect(popup.url()).toMatch(/^blob:/);
      await popup.close();
      await shot(page, `billing-consumer-bills-${language}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
