// The data set of a large utility that `npm run bench` measures every figure on, generated stage by
// stage. Each stage is one transaction that records itself in `bench_progress` as it commits, so a
// generation that is killed continues where it stopped, and a stage already there is never added twice.
import pg from 'pg';
import { FIRST, generateConsumers, generateDocuments, generateOperators, LAST } from './generate.ts';

export interface DatasetSize {
  name: 'full' | 'small';
  operators: number;
  documents: number;
  /** Years of the protocol book, up to this one. */
  documentYears: number;
  consumers: number;
  /** All traders: the consumers' owners and the other correspondents and customers. */
  traders: number;
  notifications: number;
  /** Years of readings and bills before this one, three billing periods (of four months) each. */
  waterYears: number;
}

export const FULL: DatasetSize = {
  name: 'full',
  operators: 200_000,
  documents: 1_000_000,
  documentYears: 10,
  consumers: 150_000,
  traders: 200_000,
  notifications: 50_000,
  waterYears: 3,
};

export const SMALL: DatasetSize = {
  name: 'small',
  operators: 20_000,
  documents: 60_000,
  documentYears: 10,
  consumers: 10_000,
  traders: 15_000,
  notifications: 5_000,
  waterYears: 3,
};

const PERIODS_A_YEAR = 3;

const COMPANY_WORDS = ['Τεχνική', 'Κατασκευαστική', 'Εμπορική', 'Υδραυλική', 'Ηλεκτρολογική', 'Μελετητική'];
const COMPANY_FORMS = ['ΑΕ', 'ΟΕ', 'ΕΠΕ', 'ΙΚΕ', 'ΕΕ'];

type Stage = (client: pg.ClientBase, size: DatasetSize, companyId: number) => Promise<void>;

/** The stages, in the order they depend on each other (bills read the readings, readings the meters). */
const STAGES: [string, Stage][] = [
  ['operators', (client, size) => generateOperators(client, size.operators)],
  [
    'documents',
    async (client, size) => {
      await generateDocuments(client, size.documents, new Date().getFullYear() - size.documentYears + 1);
    },
  ],
  ['consumers', async (client, size) => void (await generateConsumers(client, size.consumers))],
  [
    'traders',
    async (client, size, companyId) => {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM traders`);
      const missing = size.traders - (rows[0]?.n ?? 0);
      if (missing <= 0) return;
      // Businesses with a ΑΦΜ-shaped number, and individuals, as the correspondents of years of a book.
      await client.query(
        `INSERT INTO traders (company_id, individual, lastname, firstname, fullname, vatnumber, createuser)
         SELECT $1, g % 3 = 0,
           CASE WHEN g % 3 = 0 THEN ($3::text[])[1 + (g % array_length($3::text[], 1))] END,
           CASE WHEN g % 3 = 0 THEN ($4::text[])[1 + ((g / 5) % array_length($4::text[], 1))] END,
           CASE WHEN g % 3 = 0
             THEN ($3::text[])[1 + (g % array_length($3::text[], 1))] || ' ' || ($4::text[])[1 + ((g / 5) % array_length($4::text[], 1))] || ' ' || g
             ELSE ($5::text[])[1 + (g % array_length($5::text[], 1))] || ' ' || ($3::text[])[1 + ((g / 3) % array_length($3::text[], 1))]
                  || ' ' || ($6::text[])[1 + (g % array_length($6::text[], 1))] || ' ' || g END,
           lpad((200000000 + g)::text, 9, '0'), 'bench'
         FROM generate_series(1, $2::int) g`,
        [companyId, missing, LAST, FIRST, COMPANY_WORDS, COMPANY_FORMS],
      );
      await client.query('ANALYZE traders');
    },
  ],
  [
    'notifications',
    async (client, size, companyId) => {
      // To the administrator (whose dashboard shows them) and a thousand operators, about documents,
      // most of them read.
      await client.query(
        `WITH recipients AS (
           SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM (
             (SELECT id FROM users WHERE username = 'admin')
             UNION ALL (SELECT id FROM users WHERE createuser = 'bench' ORDER BY id LIMIT 999)) u),
         docs AS (
           SELECT id, subject, row_number() OVER (ORDER BY id) - 1 AS k FROM (
             SELECT id, subject FROM documents WHERE company_id = $1 ORDER BY id DESC LIMIT 10000) d)
         INSERT INTO notifications (company_id, user_id, sender_id, message_key, params, entity, entity_id,
           created_at, read_at)
         SELECT $1, rc.id, NULL, 'documents.notification.charged', jsonb_build_object('subject', dc.subject),
           'document', dc.id, now() - (g || ' minutes')::interval,
           CASE WHEN g % 10 <> 0 THEN now() - (g || ' minutes')::interval + interval '1 hour' END
         FROM generate_series(0, $2::int - 1) g
         JOIN recipients rc ON rc.k = g % (SELECT count(*) FROM recipients)
         JOIN docs dc ON dc.k = g % (SELECT count(*) FROM docs)`,
        [companyId, size.notifications],
      );
      await client.query('ANALYZE notifications');
    },
  ],
  [
    'readings',
    async (client, size, companyId) => {
      const thisYear = new Date().getFullYear();
      const first = thisYear - size.waterYears;
      // Every generated route read three times a year, each period finalized.
      await client.query(
        `INSERT INTO readout_route_periods (company_id, route_id, year, period, months, from_date, to_date,
           state, createuser, defuser, defdate)
         SELECT $1, r.id, y, p, 4, make_date(y, 4 * (p - 1) + 1, 1),
           (make_date(y, 4 * (p - 1) + 1, 1) + interval '4 months' - interval '1 day')::date, 9, 'bench', 'bench', now()
         FROM water_routes r, generate_series($2::int, $3::int) y, generate_series(1, ${PERIODS_A_YEAR}) p
         WHERE r.company_id = $1
           AND r.id IN (SELECT route_id FROM water_consumers WHERE company_id = $1 AND createuser = 'bench')
         ON CONFLICT DO NOTHING`,
        [companyId, first, thisYear - 1],
      );
      // Each consumer's meter read at the end of each period: 15–54 m³ a period, the reading adding up.
      const { rows } = await client.query<{ lo: number; hi: number }>(
        `SELECT min(id) AS lo, max(id) AS hi FROM water_consumers WHERE company_id = $1 AND createuser = 'bench'`,
        [companyId],
      );
      const lo = rows[0]?.lo ?? 0;
      const hi = rows[0]?.hi ?? -1;
      for (let from = lo; from <= hi; from += 20_000) {
        await client.query(
          `INSERT INTO readout_readings (company_id, route_period_id, consumer_id, meter_id, reading, read_on,
             source, previous_reading, consumption, basis, createuser)
           SELECT $1, t.period_id, t.consumer_id, t.meter_id, t.reading, t.to_date, 1, t.reading - t.used, t.used,
             'normal', 'bench'
           FROM (
             SELECT rp.id AS period_id, rp.to_date, c.id AS consumer_id, i.meter_id, u.used,
               sum(u.used) OVER (PARTITION BY c.id ORDER BY rp.year, rp.period)::int AS reading
             FROM water_consumers c
             JOIN water_meter_installations i ON i.consumer_id = c.id
             JOIN readout_route_periods rp ON rp.route_id = c.route_id AND rp.company_id = $1
               AND rp.year BETWEEN $2 AND $3
             CROSS JOIN LATERAL (SELECT 15 + ((c.id * 7 + ((rp.year - $2) * 3 + rp.period) * 13) % 40) AS used) u
             WHERE c.company_id = $1 AND c.createuser = 'bench' AND c.id BETWEEN $4 AND $5) t`,
          [companyId, first, thisYear - 1, from, Math.min(hi, from + 19_999)],
        );
        process.stdout.write(
          `\r  readings of consumers ${from - lo + 1}…${Math.min(hi, from + 19_999) - lo + 1}`,
        );
      }
      process.stdout.write('\n');
      await client.query('ANALYZE readout_route_periods; ANALYZE readout_readings');
    },
  ],
  [
    'bills',
    async (client, size, companyId) => {
      const thisYear = new Date().getFullYear();
      const { rows } = await client.query<{ id: number }>(
        `SELECT id FROM finance_series WHERE company_id = $1 AND kind = 'waterBill' ORDER BY code LIMIT 1`,
        [companyId],
      );
      const series = rows[0]?.id ?? null;
      for (let year = thisYear - size.waterYears; year < thisYear; year += 1) {
        // One finalized, paid bill per reading: a fixed charge and the water at 0.85 €/m³, VAT 13%,
        // numbered 1…n in the year of the water-bill series.
        await client.query(
          `INSERT INTO billing_bills (company_id, consumer_id, period_from, period_to, period_label, kind,
             entry_state, send_status, series_id, number, year, issue_date, due_date, previous_reading,
             previous_reading_date, current_reading, current_reading_date, consumption, billed_consumption,
             net, vat_total, previous_balance, total, paid, vat_breakdown, createuser, defuser, defdate)
           SELECT $1, r.consumer_id, rp.from_date, rp.to_date, rp.period || '/' || rp.year, 1, 9, 2, $2,
             row_number() OVER (ORDER BY rp.period, r.consumer_id), rp.year, rp.to_date + 10, rp.to_date + 40,
             r.previous_reading, rp.from_date - 1, r.reading, rp.to_date, r.consumption, r.consumption,
             m.net, m.vat, 0, m.net + m.vat, m.net + m.vat,
             jsonb_build_array(jsonb_build_object('vatPercent', '13.00', 'net', m.net::text, 'vat', m.vat::text)),
             'bench', 'bench', now()
           FROM readout_readings r
           JOIN readout_route_periods rp ON rp.id = r.route_period_id AND rp.year = $3
           CROSS JOIN LATERAL (SELECT 4.50 + round(r.consumption * 0.85, 2) AS net) n
           CROSS JOIN LATERAL (SELECT n.net, round(n.net * 0.13, 2) AS vat) m
           WHERE r.company_id = $1 AND r.createuser = 'bench'`,
          [companyId, series, year],
        );
        await client.query(
          `INSERT INTO billing_bill_lines (bill_id, position, charge, description, quantity, price, amount, vat_percent)
           SELECT b.id, l.position, l.charge, l.description, l.quantity, l.price, l.amount, 13
           FROM billing_bills b
           CROSS JOIN LATERAL (VALUES
             (1, 'waterFixed', 'Πάγιο ύδρευσης', NULL::numeric, NULL::numeric, 4.50),
             (2, 'water', 'Κατανάλωση νερού', b.billed_consumption, 0.85, b.net - 4.50)
           ) AS l(position, charge, description, quantity, price, amount)
           WHERE b.company_id = $1 AND b.createuser = 'bench' AND b.year = $2`,
          [companyId, year],
        );
        if (series !== null)
          await client.query(
            `INSERT INTO finance_series_counters (series_id, year, last, last_date)
             SELECT $1, $2, max(number), max(issue_date) FROM billing_bills WHERE series_id = $1 AND year = $2
             ON CONFLICT (series_id, year) DO UPDATE SET last = excluded.last, last_date = excluded.last_date`,
            [series, year],
          );
        console.log(`  bills of ${year}`);
      }
      await client.query('ANALYZE billing_bills; ANALYZE billing_bill_lines');
    },
  ],
  [
    'transmissions',
    async (client, _size, companyId) => {
      // Years of bills went to myDATA as they were issued: each one sent, with its MARK.
      await client.query(
        `INSERT INTO mydata_transmissions (source, document_id, company_id, state, uid, invoice_type, mark,
           attempts, sent_at, updated_at)
         SELECT 'bill', b.id, $1, 'sent', md5('bill' || b.id), '11.2', (400000000000000 + b.id)::text, 1,
           b.issue_date, b.issue_date
         FROM billing_bills b
         WHERE b.company_id = $1 AND b.createuser = 'bench' AND b.entry_state = 9
         ON CONFLICT DO NOTHING`,
        [companyId],
      );
      await client.query('ANALYZE mydata_transmissions');
    },
  ],
];

/**
 * Brings the database (migrated and seeded) to the data set of `size`, running only the stages not
 * yet recorded; a database that holds the other size's data set is refused.
 */
export async function ensureDataset(url: string, size: DatasetSize): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS bench_progress (
         stage text PRIMARY KEY, size text NOT NULL, seconds numeric NOT NULL, done_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Map(
      (
        await client.query<{ stage: string; size: string }>('SELECT stage, size FROM bench_progress')
      ).rows.map((r) => [r.stage, r.size]),
    );
    const other = [...done.values()].find((name) => name !== size.name);
    if (other)
      throw new Error(
        `This database holds the ${other} data set; the ${size.name} one needs a database of its own.`,
      );
    const { rows } = await client.query<{ id: number }>('SELECT id FROM companies ORDER BY id LIMIT 1');
    const companyId = rows[0]?.id ?? 0;
    let generated = false;
    for (const [stage, generate] of STAGES) {
      if (done.has(stage)) {
        console.log(`data set: ${stage} already there`);
        continue;
      }
      console.log(`data set: generating ${stage}…`);
      const started = performance.now();
      await client.query('BEGIN');
      try {
        await generate(client, size, companyId);
        await client.query('INSERT INTO bench_progress (stage, size, seconds) VALUES ($1, $2, $3)', [
          stage,
          size.name,
          ((performance.now() - started) / 1000).toFixed(1),
        ]);
        await client.query('COMMIT');
        generated = true;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      console.log(`data set: ${stage} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    if (generated || !done.has('vacuum')) {
      // The visibility map, so lists can read their indexes alone, and fresh statistics.
      const started = performance.now();
      await client.query('VACUUM (ANALYZE)');
      await client.query(
        `INSERT INTO bench_progress (stage, size, seconds) VALUES ($1, $2, $3)
         ON CONFLICT (stage) DO UPDATE SET seconds = excluded.seconds, done_at = now()`,
        ['vacuum', size.name, ((performance.now() - started) / 1000).toFixed(1)],
      );
    }
  } finally {
    await client.end();
  }
}
