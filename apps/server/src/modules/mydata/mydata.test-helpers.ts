import { expect } from 'vitest';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp } from '../../test/harness.ts';
import { FAKE_AADE_KEY, FAKE_AADE_USER, startFakeAade } from './fake-aade/fake-aade.ts';
import { mydataModule } from './index.ts';
import { transport } from './mydata.service.ts';
import { validateXml } from './mydata.xsd.ts';

type Json = Record<string, unknown>;

/**
 * What myDATA's tests run against: the app, the local AADE (a real HTTP server speaking the REST
 * contract), a worker for the transmission jobs, and the demo company with its ΑΦΜ and AADE
 * credentials; the transport's waits made short. `inject` asks as the administrator, `q` adds the
 * company to a URL. `close` stops all three.
 */
export async function startAadeTestBed() {
  const t = await startTestApp();
  const aade = await startFakeAade();
  Object.assign(transport, { timeoutMs: 1500, backoffMs: 20, retries: 3 });
  validateXml('<warm-up/>'); // compiles the schema once, outside the timed calls
  const worker = startJobWorker(t.database.db, jobRegistryOf([mydataModule]), { pollMs: 20, leaseMs: 5000 });
  const admin = await t.login('admin', ADMIN_PASSWORD);
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: admin,
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const companyId: number = (await inject('GET', '/api/companies')).json()[0].id;
  const q = (url: string) => `${url}${url.includes('?') ? '&' : '?'}companyid=${companyId}`;
  const company = await inject('PUT', `/api/companies/${companyId}`, {
    companyname: 'ΔΕΥΑ Αγίας Ελένης',
    companytitle: 'Δημοτική Επιχείρηση Ύδρευσης-Αποχέτευσης Αγίας Ελένης',
    vatnumber: '090000045',
    credentials: { aadeUsername: FAKE_AADE_USER, aadeSubscriptionKey: FAKE_AADE_KEY },
  });
  expect(company.statusCode, company.body).toBe(200);
  const close = async () => {
    await worker.stop();
    await aade.close();
    await t.close();
  };
  return { t, aade, admin, companyId, inject, q, close };
}

export type AadeTestBed = Awaited<ReturnType<typeof startAadeTestBed>>;
