// myDATA throughput: N finalized documents (default 10,000, two lines each at 24% and 13%) are
// transmitted to the local AADE (a real HTTP server on loopback that validates every InvoicesDoc
// against the XSD and gives MARKs) by the transmission job's own code, in its batches of 50. The
// XML building and the XSD validation are timed apart first, then the whole run; a rerun must send
// nothing (idempotency) and every document must hold a MARK.
// On the embedded database, or on BENCH_DATABASE_URL (the data set of `npm run bench`) when given.
//   npx tsx bench/mydata.ts [documents=10000]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { appModules, buildApp } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import {
  buildInvoicesDoc,
  DEFAULT_SETTINGS,
  FAKE_AADE_KEY,
  FAKE_AADE_USER,
  financeSource,
  startFakeAade,
  transmitDocuments,
  validateXml,
} from '@protocol/server/testing/mydata';
import { sql } from 'drizzle-orm';
import { reportFigure } from './support.ts';

const count = Number(process.argv[2] ?? 10_000);
const ADMIN_PASSWORD = 'bench-admin-password';
const DATE = '2026-11-25';

const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-bench-mydata-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  ADMIN_PASSWORD,
  SEED_DEMO: '1',
  LOG_LEVEL: 'warn',
});
const database = await openDatabase(config);
await database.migrate();
await bootstrap(database.db, config, appModules);
const app = await buildApp(config, database);
const aade = await startFakeAade();
try {
  const db = database.db;
  const login = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: ADMIN_PASSWORD },
  });
  const headers = { authorization: `Bearer ${login.json().jwttoken}` };
  const [company] = (await app.inject({ method: 'GET', url: '/api/companies', headers })).json();
  const companyId: number = company.id;
  await app.inject({
    method: 'PUT',
    url: `/api/companies/${companyId}`,
    headers,
    payload: {
      companyname: company.companyname,
      companytitle: company.companytitle,
      vatnumber: '090000045',
      credentials: { aadeUsername: FAKE_AADE_USER, aadeSubscriptionKey: FAKE_AADE_KEY },
    },
  });
  await app.inject({
    method: 'PUT',
    url: `/api/mydata/settings?companyid=${companyId}`,
    headers,
    payload: { ...DEFAULT_SETTINGS, testUrl: aade.url },
  });

  // N services invoices to one customer, numbered 1…N, written as SQL (issuing is finance's bench).
  const seeded = performance.now();
  await db.execute(sql`
    WITH s AS (SELECT id FROM finance_series WHERE company_id = ${companyId} AND code = 'ΤΠΥ'),
         t AS (INSERT INTO traders (company_id, fullname, vatnumber, individual, createuser)
               VALUES (${companyId}, 'Τεχνική Κατασκευαστική ΑΕ', '094014201', false, 'bench') RETURNING id),
         d AS (INSERT INTO finance_documents (company_id, series_id, number, year, date, trader_id, entry_state,
                 net, vat, gross, payable, createuser)
               SELECT ${companyId}, s.id, n, 2026, ${DATE}, t.id, 9, '140.00', '27.00', '167.00', '167.00', 'bench'
               FROM s, t, generate_series(1, ${count}) n RETURNING id)
    INSERT INTO finance_document_lines (document_id, position, service_id, descr, quantity, price, vat_percent, net, vat, total)
    SELECT d.id, p, (SELECT min(id) FROM finance_services WHERE company_id = ${companyId}), 'Τέλος', 1,
           CASE p WHEN 1 THEN 100 ELSE 40 END, CASE p WHEN 1 THEN 24 ELSE 13 END,
           CASE p WHEN 1 THEN 100 ELSE 40 END, CASE p WHEN 1 THEN 24 ELSE 3 END, CASE p WHEN 1 THEN 124 ELSE 43 END
    FROM d, generate_series(1, 2) p`);
  const rows = await db.execute<{ id: number }>(
    sql`SELECT id FROM finance_documents WHERE company_id = ${companyId} AND entry_state = 9 ORDER BY id`,
  );
  const ids = (rows as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
  console.log(`${ids.length} documents written in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  // XML building and XSD validation, timed apart on the same documents.
  const docs = [];
  for (let at = 0; at < ids.length; at += 500)
    docs.push(
      ...(await financeSource(
        db,
        companyId,
        { branch: 0, mappings: DEFAULT_SETTINGS.mappings },
        ids.slice(at, at + 500),
      )),
    );
  validateXml('<warm-up/>');
  let started = performance.now();
  const xmls = docs.map((doc) => buildInvoicesDoc([doc], DEFAULT_SETTINGS.mappings));
  const buildMs = performance.now() - started;
  started = performance.now();
  const invalid = xmls.filter((xml) => validateXml(xml).length > 0).length;
  const validateMs = performance.now() - started;
  const load = () => `load average ${loadavg()[0]?.toFixed(2)}`;
  const perSecond = (n: number, ms: number) => Math.round(n / (ms / 1000));
  console.log(`${invalid} of ${docs.length} documents invalid (${load()})`);
  reportFigure({
    figure: `myDATA XML build, ${docs.length.toLocaleString('en')} documents`,
    value: perSecond(docs.length, buildMs),
    unit: 'documents/s',
  });
  reportFigure({
    figure: `myDATA XSD validation, ${docs.length.toLocaleString('en')} documents`,
    value: perSecond(docs.length, validateMs),
    unit: 'documents/s',
  });

  // The whole transmission: load, build, validate, mark uncertain, send in batches of 50, store MARKs.
  started = performance.now();
  const result = await transmitDocuments(db, companyId, ids, async () => undefined);
  const sendMs = performance.now() - started;
  console.log(`transmission: ${(sendMs / 1000).toFixed(1)} s (${load()})`, result);
  reportFigure({
    figure: `myDATA transmission to the local AADE, ${ids.length.toLocaleString('en')} documents end to end`,
    value: perSecond(ids.length, sendMs),
    unit: 'documents/s',
  });

  const rerun = await transmitDocuments(db, companyId, ids, async () => undefined);
  const marks = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM mydata_transmissions WHERE company_id = ${companyId} AND state = 'sent' AND mark IS NOT NULL`,
  );
  const withMark = Number((marks as unknown as { rows: { n: number }[] }).rows[0]?.n);
  console.log(
    `rerun: ${rerun.sent} sent again, ${rerun.skipped} skipped; ${withMark} documents hold a MARK; AADE holds ${aade.invoices.size}`,
  );
  if (invalid > 0 || result.sent !== ids.length || rerun.sent > 0 || aade.invoices.size !== ids.length) {
    console.error('FAILED: every document must validate, be sent once and only once');
    process.exitCode = 1;
  }
} finally {
  await app.close();
  await aade.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
