import billingEl from '@protocol/contracts/i18n/billing/el.json';
import billingEn from '@protocol/contracts/i18n/billing/en.json';
import sharedEl from '@protocol/contracts/i18n/el.json';
import sharedEn from '@protocol/contracts/i18n/en.json';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobErrorText } from './jobs.ts';

beforeAll(async () => {
  await i18n.init({
    lng: 'el',
    fallbackLng: 'el',
    interpolation: { escapeValue: false },
    resources: {
      el: { translation: { ...sharedEl, ...billingEl } },
      en: { translation: { ...sharedEn, ...billingEn } },
    },
  });
});

describe('a job’s error as the reader sees it', () => {
  it('issue 29 item 15: the kept key and params in the reader’s language; an old text or an unknown key as the general failure', async () => {
    const mail = { error: 'error.mail_failed', errorParams: { detail: '550' } };
    const el = i18n.getFixedT('el');
    const en = i18n.getFixedT('en');
    expect(jobErrorText(el, mail)).toBe('Ο διακομιστής e-mail δεν δέχτηκε το μήνυμα: 550');
    expect(jobErrorText(en, mail)).toBe('The mail server did not accept the message: 550');
    expect(jobErrorText(en, { error: 'error.job_aborted', errorParams: {} })).toBe(
      'The job was interrupted before it finished. Start it again.',
    );
    // A billing run's copy of its job's error, as the server keeps it.
    expect(jobErrorText(en, { error: 'error.mail_failed?{"detail":"550"}' })).toBe(
      'The mail server did not accept the message: 550',
    );
    expect(jobErrorText(el, { error: 'billing.error.run_route_held' })).not.toContain('billing.error');
    for (const old of ['Stopped', 'aborted', 'Η υπηρεσία δεν απαντά', 'readouts.unknown?{oops']) {
      expect(jobErrorText(en, { error: old, errorParams: {} })).toBe(
        'The job failed. If it fails again, contact the system administrator.',
      );
    }
  });
});
