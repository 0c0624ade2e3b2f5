// Invoice throughput: N invoices of 5 lines each (default 10,000) are issued through the API
// (POST /api/finance/documents?finalize=true: stored and numbered from the series' counter row) by concurrent clients,
// then the same rows (document, 5 lines, counter, finalize) are written as raw SQL transactions into a
// second series on the same PostgreSQL. Prints both rates, their ratio (target ≥ 0.3) and checks that
// both series are numbered exactly 1…N (0 gaps, 0 duplicates).
//   npx tsx bench/finance.ts [invoices=10000]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lineAmounts } from '@protocol/contracts';
import { buildApp } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import pg from 'pg';
import { benchPostgres, freePort } from './support.ts';

const invoices = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ADMIN_PASSWORD = 'bench-admin-password';
const DATE = '2026-11-25';

/** Runs `operation(i)` for i = 0…count−1 on `clients` workers; answers operations per second. */
async function run(count: number, clients: number, operation: (i: number) => Promise<void>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        await operation(i);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const server = await benchPostgres();
try {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'protocol-bench-')),
    DATABASE_URL: server.url,
    DATABASE_POOL_MAX: String(Math.max(concurrency, 10)),
    ADMIN_PASSWORD,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
  });
  const database = await openDatabase(config);
  await database.migrate();
  await bootstrap(database.db, config, () => undefined);
  const pool = new pg.Pool({ connectionString: server.url, max: concurrency });
  const companyId = (await pool.query<{ id: number }>('SELECT min(id) AS id FROM companies')).rows[0]?.id;
  const trader = (
    await pool.query<{ id: number }>(
      `INSERT INTO traders (company_id, fullname, vatnumber, individual, createuser)
       VALUES ($1, 'Τεχνική Κατασκευαστική ΑΕ', '094014201', false, 'bench') RETURNING id`,
      [companyId],
    )
  ).rows[0]?.id;
  // Two series of their own: one the API issues in, one the raw SQL writes to.
  const series = async (code: string) =>
    (
      await pool.query<{ id: number }>(
        `INSERT INTO finance_series (company_id, code, descr, kind, mydata_type, printype, createuser)
         VALUES ($1, $2, $2, 'servicesInvoice', '2.1', 0, 'bench') RETURNING id`,
        [companyId, code],
      )
    ).rows[0]?.id;
  const apiSeries = await series('ΒΑΠ');
  const rawSeries = await series('ΒΣΘ');
  const services = (
    await pool.query<{ id: number; descr: string; account_id: number | null }>(
      'SELECT id, descr, account_id FROM finance_services WHERE company_id = $1 ORDER BY id',
      [companyId],
    )
  ).rows;
  const lines = Array.from({ length: 5 }, (_, i) => {
    const service = services[i % services.length];
    return {
      service,
      quantity: String(i + 1),
      price: (12.3456 + i * 7.5).toFixed(4),
      discount: i === 2 ? '10' : '0',
    };
  });

  const app = await buildApp(config, database);
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}/api`;
  const login = await fetch(`${base}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { jwttoken } = (await login.json()) as { jwttoken: string };
  const headers = { authorization: `Bearer ${jwttoken}`, 'content-type': 'application/json' };
  const body = JSON.stringify({
    seriesId: apiSeries,
    date: DATE,
    traderId: trader,
    paymentMethod: 5,
    status: 1,
    lines: lines.map((l) => ({
      serviceId: l.service?.id,
      itemId: null,
      warehouseId: null,
      quantity: l.quantity,
      price: l.price,
      discount: l.discount,
      vatPercent: '24',
    })),
    taxes: [{ kind: 3, percent: '20', amount: null }],
  });

  // One call issues an invoice: stored, numbered and finalized in one transaction (the form's save and finalize).
  const issue = async () => {
    const issued = await fetch(`${base}/finance/documents?finalize=true&companyid=${companyId}`, {
      method: 'POST',
      headers,
      body,
    });
    if (issued.status !== 201) throw new Error(`${issued.status} ${await issued.text()}`);
    await issued.arrayBuffer();
  };

  // The same rows as raw SQL, amounts computed with the same money rules (half-up per line).
  const amounts = lines.map((l) => {
    const line = lineAmounts({ quantity: l.quantity, price: l.price, discount: l.discount, vatPercent: 24 });
    return { net: line.net.toFixed(2), vat: line.vat.toFixed(2), total: line.total.toFixed(2) };
  });
  const issueRaw = async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const id = (
        await client.query<{ id: number }>(
          `INSERT INTO finance_documents (company_id, series_id, date, trader_id, payment_method, entry_state, status,
             net, vat, gross, withheld, payable, createuser)
           VALUES ($1, $2, $3, $4, 5, 0, 1, 0, 0, 0, 0, 0, 'bench') RETURNING id`,
          [companyId, rawSeries, DATE, trader],
        )
      ).rows[0]?.id;
      for (const [i, l] of lines.entries()) {
        await client.query(
          `INSERT INTO finance_document_lines (document_id, position, service_id, account_id, descr, quantity, price,
             discount, vat_percent, net, vat, total)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 24, $9, $10, $11)`,
          [
            id,
            i + 1,
            l.service?.id,
            l.service?.account_id,
            l.service?.descr,
            l.quantity,
            l.price,
            l.discount,
            amounts[i]?.net,
            amounts[i]?.vat,
            amounts[i]?.total,
          ],
        );
      }
      await client.query(
        `INSERT INTO finance_document_taxes (document_id, kind, percent, amount) VALUES ($1, 3, 20, 0)`,
        [id],
      );
      await client.query(
        `WITH taken AS (
           INSERT INTO finance_series_counters (series_id, year, last, last_date) VALUES ($1, 2026, 1, $2)
           ON CONFLICT (series_id, year) DO UPDATE SET last = finance_series_counters.last + 1,
             last_date = greatest(finance_series_counters.last_date, excluded.last_date)
           RETURNING last)
         UPDATE finance_documents SET number = taken.last, year = 2026, entry_state = 9, defuser = 'bench',
           defdate = now() FROM taken WHERE finance_documents.id = $3`,
        [rawSeries, DATE, id],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };

  // Warm-up of both paths (the server's code is compiled on first use); they count in the series too.
  const warmup = Math.min(200, invoices);
  await run(warmup, concurrency, issue);
  await run(warmup, concurrency, issueRaw);
  const apiRate = await run(invoices, concurrency, issue);
  console.log(`API: ${invoices} invoices of 5 lines issued at ${apiRate.toFixed(0)} invoices/s`);
  const rawRate = await run(invoices, concurrency, issueRaw);
  console.log(`raw SQL: the same rows at ${rawRate.toFixed(0)} invoices/s`);
  const ratio = apiRate / rawRate;
  console.log(`ratio ${ratio.toFixed(2)} (target ≥ 0.3)`);

  let failed = ratio < 0.3;
  for (const [label, id] of [
    ['API', apiSeries],
    ['raw SQL', rawSeries],
  ] as const) {
    const check = (
      await pool.query<{ total: string; distinct: string; max: number; last: number }>(
        `SELECT count(*) AS total, count(DISTINCT number) AS distinct, max(number) AS max,
           (SELECT last FROM finance_series_counters WHERE series_id = $1 AND year = 2026) AS last
         FROM finance_documents WHERE series_id = $1 AND year = 2026`,
        [id],
      )
    ).rows[0];
    const total = Number(check?.total);
    const gaps = (check?.max ?? 0) - total;
    const duplicates = total - Number(check?.distinct);
    console.log(
      `${label} series: ${total} invoices, numbers 1…${check?.max}, counter ${check?.last}: ${gaps} gaps, ${duplicates} duplicates`,
    );
    if (gaps !== 0 || duplicates !== 0 || check?.last !== check?.max || total !== invoices + warmup)
      failed = true;
  }
  await app.close();
  await pool.end();
  await database.close();
  if (failed) process.exitCode = 1;
} finally {
  server.stop();
}
