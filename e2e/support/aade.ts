import { FAKE_AADE_KEY, FAKE_AADE_USER } from '@protocol/server/testing/fake-aade';
import { expect } from 'vitest';
import type { Api } from './api.ts';

/** The demo company made a taxpayer of the local AADE: its ΑΦΜ and the AADE user and key. */
export async function registerWithAade(api: Api): Promise<void> {
  const [company] = (await api('GET', '/api/companies')).body;
  const saved = await api('PUT', `/api/companies/${company.id}`, {
    companyname: company.companyname,
    companytitle: company.companytitle,
    vatnumber: '090000045',
    credentials: { aadeUsername: FAKE_AADE_USER, aadeSubscriptionKey: FAKE_AADE_KEY },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}
