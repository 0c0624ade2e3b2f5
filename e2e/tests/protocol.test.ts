import { readFileSync } from 'node:fs';
import path from 'node:path';
import { utilityTime } from '@protocol/contracts';
import { pdfText } from '@protocol/server/testing/files';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, SCREENSHOTS, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

// The protocol as the secretariat uses it (issue 6): register an incoming document with a sender and
// an attachment, charge it to a colleague who returns it, reply with an outgoing document, open a
// case, be refused the delete, archive and restore, and print the protocol book.

const DEMO_PASSWORD = 'Demo-2026!';
const SUBJECT = 'Αίτηση επανασύνδεσης υδροδότησης οδός Αθηνάς 5';
let e2e: E2E;

/** A one-page PDF, enough for a real upload and an inline preview. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** `username` signed in on the dashboard, or at `path` (opened first: each load starts the whole app). */
async function signedIn(username: string, { timezoneId, path }: { timezoneId?: string; path?: string } = {}) {
  const { context, page } = await e2e.newPage({ timezoneId });
  await openSignedIn(page, username, username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD, path ?? '/');
  await page.getByTestId(path ? 'side-menu' : 'dashboard-greeting').waitFor();
  return { context, page };
}

async function runAction(page: Page, action: string, comments?: string) {
  await page.getByTestId('document-actions').click();
  await page.getByTestId(`action-${action}`).click();
  if (comments !== undefined) await page.getByTestId('action-comments').fill(comments);
}

/**
 * Fills a new document (subject, the trader picked by a search, the year's book of the kind) and
 * saves it, confirming the registration. Returns the protocol number shown (N/YYYY).
 */
async function register(page: Page, kind: 0 | 1, subject: string, trader?: { search: string; name: RegExp }) {
  await page.goto(`/document/create?kind=${kind}`);
  await page.getByTestId('attachments-save-first').waitFor();
  await page.getByTestId('document-subject').fill(subject);
  if (trader) {
    await page.getByTestId(`document-${kind === 0 ? 'senders' : 'receivers'}-picker`).fill(trader.search);
    await page.getByRole('option', { name: trader.name }).click();
  }
  const book = page.getByTestId('document-book');
  const bookName = kind === 0 ? 'Εισερχόμενα' : 'Εξερχόμενα';
  const bookValue = await book.locator('option', { hasText: bookName }).first().getAttribute('value');
  await book.selectOption(bookValue ?? '');
  await page.getByTestId('document-save').click();
  await page.getByTestId('confirm-dialog-ok').click();
  await page.waitForURL(/\/document\/\d+\/edit/);
  const shown = page.getByTestId('document-protocol-id');
  await expect.poll(async () => shown.textContent()).toMatch(/\d+\/20\d\d/);
  return /(\d+\/20\d\d)/.exec((await shown.textContent()) ?? '')?.[1] ?? '';
}

const documentId = (page: Page) => Number(/\/document\/(\d+)\/edit/.exec(page.url())?.[1]);

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('the protocol book', () => {
  let incomingId = 0;
  let protocolId = '';

  it('registers an incoming document with a sender and an attachment', async () => {
    // A browser seven hours behind Athens: times are still shown in the utility's time zone.
    const { context, page } = await signedIn('mpapadopoulou', { timezoneId: 'America/New_York' });
    const athensHour = () => utilityTime(new Date()).split(':')[0];
    const hours = new Set([athensHour()]);
    protocolId = await register(page, 0, SUBJECT, { search: 'παπαδοπουλος', name: /Παπαδόπουλος Ιωάννης/ });
    incomingId = documentId(page);
    hours.add(athensHour());
    const registeredAt = (await page.getByTestId('document-protocol-date').textContent()) ?? '';
    expect(hours).toContain(/ (\d{1,2}):\d\d:\d\d/.exec(registeredAt)?.[1]);
    await page.getByTestId('document-senders').getByText('Παπαδόπουλος Ιωάννης').waitFor();

    await page.getByTestId('attachments-input').setInputFiles({
      name: 'Αίτηση υπογεγραμμένη.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await page.getByTestId('attachments-list').getByText('Αίτηση υπογεγραμμένη.pdf').waitFor();
    await shot(page, 'e2e-document-registered');
    await context.close();
  });

  it('charges it to a second operator, who returns it', async () => {
    const secretary = await signedIn('mpapadopoulou', { path: `/document/${incomingId}/edit` });
    await runAction(secretary.page, 'charge', 'Παρακαλώ για τον έλεγχο της οφειλής');
    await secretary.page.getByTestId('action-operator').fill('Νικολ');
    await secretary.page.getByTestId('operator-option-gnikolaou').click();
    await secretary.page.getByTestId('action-dialog-ok').click();
    await secretary.page
      .getByTestId('document-info')
      .getByText(/Νικολάου/)
      .waitFor();
    await secretary.context.close();

    const colleague = await signedIn('gnikolaou', { path: '/inbox' });
    await colleague.page.getByText(SUBJECT).click();
    await colleague.page.waitForURL(new RegExp(`/document/${incomingId}/edit`));
    await runAction(colleague.page, 'return', 'Ελέγχθηκε, δεν υπάρχει οφειλή');
    await colleague.page.getByTestId('action-dialog-ok').click();
    await colleague.page
      .getByTestId('document-info')
      .getByText(/Παπαδοπούλου/)
      .waitFor();
    await runAction(colleague.page, 'history');
    const history = colleague.page.getByTestId('history-dialog');
    await history.getByText('Ελέγχθηκε, δεν υπάρχει οφειλή').waitFor();
    await history.getByText('Παρακαλώ για τον έλεγχο της οφειλής').waitFor();
    await shot(colleague.page, 'e2e-document-history');
    await colleague.context.close();
  });

  it('charges several documents of the inbox at once to a colleague', async () => {
    const { context, page } = await signedIn('mpapadopoulou', { path: '/inbox' });
    const boxes = page.locator('[data-testid^="row-select-"]:not([data-testid="row-select-page"])');
    await boxes.first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const ids: number[] = [];
    for (const box of await boxes.all()) {
      const id = Number((await box.getAttribute('data-testid'))?.replace('row-select-', ''));
      if (id !== incomingId && ids.length < 2) {
        await box.check();
        ids.push(id);
      }
    }
    expect(ids).toHaveLength(2);
    await page.getByTestId('bulk-actions').click();
    await page.getByTestId('bulk-action-charge').click();
    const dialog = page.getByTestId('action-dialog-charge');
    await dialog.getByText('2 επιλεγμένα έγγραφα').waitFor();
    await page.getByTestId('action-operator').fill('Νικολ');
    await page.getByTestId('operator-option-gnikolaou').click();
    await page.getByTestId('action-comments').fill('Για απάντηση εντός της εβδομάδας');
    await shot(page, 'e2e-bulk-charge');
    await page.getByTestId('action-dialog-ok').click();
    await page.getByText(/Χρέωση: 2 ολοκληρώθηκαν, 0 απορρίφθηκαν/).waitFor();
    for (const id of ids) {
      await page.goto(`/document/${id}/edit`);
      await page
        .getByTestId('document-info')
        .getByText(/Νικολάου/)
        .waitFor();
    }
    await context.close();
  });

  it('replies with an outgoing document, opens a case, refuses the delete, archives and restores', async () => {
    const { context, page } = await signedIn('mpapadopoulou', { path: `/document/${incomingId}/edit` });

    await runAction(page, 'convertToOutgoing');
    await page.getByTestId('confirm-dialog-ok').click();
    await page.waitForURL((url) => !url.pathname.endsWith(`/document/${incomingId}/edit`));
    await page.getByTestId('document-receivers').getByText('Παπαδόπουλος Ιωάννης').waitFor();
    expect(await page.getByTestId('document-subject').inputValue()).toContain(SUBJECT);

    await page.goto(`/document/${incomingId}/edit`);
    await runAction(page, 'createCase', 'Φάκελος επανασύνδεσης');
    await page.getByTestId('case-name').fill('Επανασύνδεση υδροδότησης Αθηνάς 5');
    await page.getByTestId('action-dialog-ok').click();
    await page.getByTestId('document-info').getByText('Επανασύνδεση υδροδότησης Αθηνάς 5').waitFor();

    // Registered (and in a case): the delete is offered disabled, with the reason.
    await page.getByTestId('document-actions').click();
    const remove = page.getByTestId('action-delete');
    await expect.poll(async () => remove.getAttribute('aria-disabled')).toBe('true');
    const reason = page.getByTestId('action-delete-reason');
    expect(await reason.getAttribute('data-reason')).toMatch(/^error\./);
    await reason.hover();
    expect(await page.getByRole('tooltip').textContent()).toMatch(/πρωτοκ|φάκελ/i);
    await page.keyboard.press('Escape');

    await runAction(page, 'archive');
    await page.getByTestId('confirm-dialog-ok').click();
    await page
      .getByTestId('document-state-chip')
      .getByText(/Αρχειοθετ/)
      .waitFor();
    await page.goto('/document/archived');
    await page.getByText(SUBJECT).waitFor();
    await page.getByText(SUBJECT).click();
    await page.waitForURL(new RegExp(`/document/${incomingId}/edit`));
    await runAction(page, 'restore');
    await page.getByTestId('confirm-dialog-ok').click();
    await expect.poll(async () => page.getByTestId('document-state-chip').count()).toBe(0);
    await page.goto('/inbox');
    await page.getByText(SUBJECT).waitFor();
    await shot(page, 'e2e-inbox');
    await context.close();
  });

  it('sends a registered outgoing document by e-mail to its receiver, with its file', async () => {
    const { context, page } = await signedIn('mpapadopoulou');
    const outgoingId = await register(page, 1, 'Ενημέρωση για την επανασύνδεση υδροδότησης', {
      search: 'παπαδοπουλος',
      name: /Παπαδόπουλος Ιωάννης/,
    });
    await page.getByTestId('attachments-input').setInputFiles({
      name: 'Απάντηση.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await page.getByTestId('attachments-list').getByText('Απάντηση.pdf').waitFor();

    await runAction(page, 'send', 'Σας ενημερώνουμε για την επανασύνδεση.');
    const recipients = page.getByTestId('send-recipients');
    await recipients.getByText(/i\.papadopoulos@example\.gr/).waitFor();
    await shot(page, 'e2e-send-email');
    const before = e2e.mail.received.length;
    await page.getByTestId('action-dialog-ok').click();
    await page.getByText('Το έγγραφο στάλθηκε με e-mail στους παραλήπτες').waitFor();
    await expect.poll(() => e2e.mail.received.length).toBe(before + 1);
    const message = e2e.mail.received.at(-1);
    expect(message?.to).toEqual(['i.papadopoulos@example.gr']);
    expect(message?.parsed.subject).toBe(
      `Αρ. πρωτ. ${outgoingId}: Ενημέρωση για την επανασύνδεση υδροδότησης`,
    );
    expect(message?.parsed.text).toContain('Σας ενημερώνουμε για την επανασύνδεση.');
    expect(message?.parsed.attachments.map((a) => a.filename)).toEqual(['Απάντηση.pdf']);
    // The history says how and to whom it went.
    await page.getByTestId('document-send-status').getByText('Απεστάλη', { exact: true }).waitFor();
    await runAction(page, 'history');
    const history = page.getByTestId('history-dialog');
    await history.getByText('Στάλθηκε με e-mail σε').waitFor();
    await history.getByText('i.papadopoulos@example.gr').waitFor();
    await page.waitForTimeout(400); // the dialog's fade-in, for the screenshot
    await shot(page, 'e2e-send-history');
    await context.close();
  });

  it('prints the protocol book as a PDF with the entry in it', async () => {
    const { context, page } = await signedIn('mpapadopoulou', { path: '/book_summary' });
    const book = page.getByTestId('book-summary-book');
    const value = await book.locator('option', { hasText: 'Εισερχόμενα' }).first().getAttribute('value');
    await book.selectOption(value ?? '');
    const number = protocolId.split('/')[0];
    await page.getByTestId(`book-summary-entry-${number}`).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('book-summary-pdf').click(),
    ]);
    const file = path.join(SCREENSHOTS, 'e2e-book-summary.pdf');
    await download.saveAs(file);
    const text = await pdfText(readFileSync(file));
    expect(text).toContain(protocolId);
    expect(text).toContain('Αίτηση επανασύνδεσης');
    expect(text).toMatch(/Σελίδα 1 από \d+/);
    await shot(page, 'e2e-book-summary');
    await context.close();
  });

  it('asks to print the registration receipt when the document type says so, and opens it', async () => {
    // The admin sets the receipt of the default type (code 3) to "ask" in the settings table.
    const admin = await signedIn('admin', { path: '/settings/document_types' });
    await admin.page.getByTestId('row-table').waitFor();
    const codes = admin.page.locator('[data-testid^="cell-seqnr-"]');
    await codes.first().waitFor();
    let typeId = '';
    for (const code of await codes.all()) {
      if ((await code.inputValue()) === '3')
        typeId = (await code.getAttribute('data-testid'))?.slice(11) ?? '';
    }
    expect(typeId).not.toBe('');
    await admin.page.getByTestId(`cell-printype-${typeId}`).selectOption('2');
    await admin.page.getByTestId('row-save').click();
    await expect.poll(async () => admin.page.getByTestId('row-save').isDisabled()).toBe(true);
    await admin.context.close();

    const { context, page } = await signedIn('mpapadopoulou');
    await register(page, 0, 'Αίτηση με απόδειξη πρωτοκόλλησης');
    // The registration is saved; then the type's receipt setting asks whether to print.
    const ask = page.getByTestId('confirm-dialog');
    await ask
      .getByText(/απόδειξη/i)
      .first()
      .waitFor();
    await shot(page, 'e2e-receipt-ask');
    const [receipt, response] = await Promise.all([
      context.waitForEvent('page'),
      page.waitForResponse((r) => /\/api\/document\/\d+\/receipt/.test(r.url())),
      page.getByTestId('confirm-dialog-ok').click(),
    ]);
    // The receipt PDF is fetched with the session and opened in a new window to print.
    expect(response.headers()['content-type']).toContain('application/pdf');
    const again = await fetch(response.url(), {
      headers: { authorization: (await response.request().allHeaders()).authorization ?? '' },
    });
    expect(
      Buffer.from(await again.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(receipt.url()).toMatch(/^blob:/);
    await context.close();
  });
});
