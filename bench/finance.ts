// Invoice throughput: N invoices of 5 lines each (default 10,000) are issued by concurrent clients
// through the API of the server, run as one process per core (BENCH_SERVER_NODES) apart from this
// load generator (POST /api/finance/documents?finalize=true:
// stored and numbered from the series' counter row), then the same rows (document, 5 lines, tax,
// number, audit lines) are written by the fastest honest raw SQL (one prepared statement per invoice)
// into a second series on the same PostgreSQL. Prints both rates, their ratio (target ≥ 0.3) and
// checks that both series are numbered exactly 1…N (0 gaps, 0 duplicates).
//   npx tsx bench/finance.ts [invoices=10000]
import { availableParallelism, loadavg } from 'node:os';
import { lineAmounts } from '@protocol/contracts';
import pg from 'pg';
import { cpuMeter, perOperation } from './cpu.ts';
import { httpClient, startServerNodes } from './nodes.ts';
import { benchPostgres, reportFigure } from './support.ts';

const invoices = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ADMIN_PASSWORD = 'bench-admin-password';
const DATE = '2026-11-25';

/** Runs `operation(worker)` `count` times on `clients` workers; answers operations per second. */
async function run(count: number, clients: number, operation: (worker: number) => Promise<void>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, worker) => {
      while (next < count) {
        next += 1;
        await operation(worker);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const server = await benchPostgres();
try {
  // The server in processes of its own (migrated and seeded at start), the load generator and the raw SQL here.
  const nodes = await startServerNodes(
    { DATABASE_URL: server.url, ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' },
    Math.max(10, Math.ceil(concurrency / Number(process.env.BENCH_SERVER_NODES ?? availableParallelism()))),
  );
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

  const http = httpClient(nodes.bases, concurrency);
  const login = await http.call(0, '/account/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { jwttoken } = JSON.parse(login.text) as { jwttoken: string };
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
  const issue = async (worker: number) => {
    const issued = await http.call(worker, `/finance/documents?finalize=true&companyid=${companyId}`, {
      method: 'POST',
      headers,
      body,
    });
    if (issued.status !== 201) throw new Error(`${issued.status} ${issued.text}`);
  };

  // The same rows as raw SQL, amounts computed with the same money rules (half-up per line).
  const amounts = lines.map((l) => {
    const line = lineAmounts({ quantity: l.quantity, price: l.price, discount: l.discount, vatPercent: 24 });
    return { net: line.net.toFixed(2), vat: line.vat.toFixed(2), total: line.total.toFixed(2) };
  });
  // The fastest honest raw SQL: the whole invoice (document, 5 lines, tax, number from the counter row,
  // both audit lines) in ONE statement with its own implicit transaction, one round trip, the
  // counter row locked for that statement only.
  const rawStatement = `
    WITH taken AS (
      INSERT INTO finance_series_counters (series_id, year, last, last_date) VALUES ($1, 2026, 1, $2)
      ON CONFLICT (series_id, year) DO UPDATE SET last = finance_series_counters.last + 1,
        last_date = greatest(finance_series_counters.last_date, excluded.last_date)
      RETURNING last
    ), doc AS (
      INSERT INTO finance_documents (company_id, series_id, number, year, date, trader_id, payment_method,
        entry_state, status, net, vat, gross, withheld, payable, createuser, defuser, defdate)
      SELECT $3, $1, taken.last, 2026, $2, $4, 5, 9, 1, 0, 0, 0, 0, 0, 'bench', 'bench', now() FROM taken
      RETURNING id
    ), lines AS (
      INSERT INTO finance_document_lines (document_id, position, service_id, account_id, descr, quantity, price,
        discount, vat_percent, net, vat, total)
      SELECT doc.id, l.position, l.service_id, l.account_id, l.descr, l.quantity, l.price, l.discount, 24,
        l.net, l.vat, l.total
      FROM doc, jsonb_to_recordset($5::jsonb) AS l(position int, service_id int, account_id int, descr text,
        quantity numeric, price numeric, discount numeric, net numeric, vat numeric, total numeric)
    ), taxes AS (
      INSERT INTO finance_document_taxes (document_id, kind, percent, amount) SELECT doc.id, 3, 20, 0 FROM doc
    )
    INSERT INTO audit_log (company_id, entity, entity_id, action, user_id, username, request_id)
    SELECT $3, 'financeDocument', doc.id::text, a.action, NULL, 'bench', NULL
    FROM doc, (VALUES ('create'), ('finalized')) AS a(action)`;
  const linesJson = JSON.stringify(
    lines.map((l, i) => ({
      position: i + 1,
      service_id: l.service?.id,
      account_id: l.service?.account_id,
      descr: l.service?.descr,
      quantity: l.quantity,
      price: l.price,
      discount: l.discount,
      ...amounts[i],
    })),
  );
  // A named statement: parsed and planned once per connection, as the fastest client would.
  const issueRaw = async () => {
    await pool.query({
      name: 'issue',
      text: rawStatement,
      values: [rawSeries, DATE, companyId, trader, linesJson],
    });
  };

  // Warm-up of both paths (the server's code is compiled on first use); they count in the series too.
  const warmup = Math.min(200, invoices);
  await run(warmup, concurrency, issue);
  await run(warmup, concurrency, issueRaw);
  const meter = await cpuMeter(pool);
  const api = await perOperation(meter, invoices, () => run(invoices, concurrency, issue));
  const raw = await perOperation(meter, invoices, () => run(invoices, concurrency, issueRaw));
  const ratio = api.result / raw.result;
  // On a busy machine the ratio falls with the load, so it is printed beside it, and so is the CPU
  // each invoice cost, which changes little with the load (this process's: the load generator's HTTP
  // client, or the raw side's PostgreSQL client).
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const cpu = (side: { serverMs?: number; databaseMs?: number; benchMs?: number }) =>
    side.serverMs === undefined || side.databaseMs === undefined
      ? ''
      : `, CPU per invoice ${(side.serverMs + side.databaseMs).toFixed(2)} ms (server ${side.serverMs.toFixed(2)}, PostgreSQL ${side.databaseMs.toFixed(2)}; client ${side.benchMs?.toFixed(2)})`;
  console.log(
    `API (${nodes.description}): ${invoices} invoices of 5 lines issued at ${api.result.toFixed(0)} invoices/s${cpu(api)}`,
  );
  console.log(`raw SQL: the same rows at ${raw.result.toFixed(0)} invoices/s${cpu(raw)}`);
  console.log(
    `ratio ${ratio.toFixed(2)} (target ≥ 0.3); load average ${load} on ${availableParallelism()} cores`,
  );

  let gaps = 0;
  let failed = false;
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
    const missing = (check?.max ?? 0) - total;
    const duplicates = total - Number(check?.distinct);
    console.log(
      `${label} series: ${total} invoices, numbers 1…${check?.max}, counter ${check?.last}: ${missing} gaps, ${duplicates} duplicates`,
    );
    gaps += missing;
    if (missing !== 0 || duplicates !== 0 || check?.last !== check?.max || total !== invoices + warmup)
      failed = true;
  }
  reportFigure({
    figure: `invoice issuing, ${invoices} invoices of 5 lines, ${concurrency} clients, ${nodes.description} (load ${load})`,
    value: api.result,
    unit: '/s',
    baseline: { label: 'raw SQL, one prepared statement per invoice', value: raw.result },
    ratio,
    target: '≥ 0.3× raw SQL',
    holds: ratio >= 0.3,
  });
  if (api.serverMs !== undefined && api.databaseMs !== undefined && raw.databaseMs !== undefined)
    reportFigure({
      figure: 'invoice issuing, CPU per invoice (server + PostgreSQL)',
      value: api.serverMs + api.databaseMs,
      unit: 'ms',
      baseline: { label: 'raw SQL (PostgreSQL)', value: raw.databaseMs },
    });
  reportFigure({
    figure: 'invoice series after issuing: gaps and duplicates',
    value: gaps,
    unit: 'gaps',
    target: '0, numbers 1…N',
    holds: !failed,
  });
  http.close();
  await nodes.stop();
  await pool.end();
  if (failed || ratio < 0.3) process.exitCode = 1;
} finally {
  server.stop();
}
