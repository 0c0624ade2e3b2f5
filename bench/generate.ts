// Large-data generators for the benchmarks: on a database address (a connection of their own), or on a
// connection given, inside the caller's transaction (the resumable data set of `npm run bench`).
import pg from 'pg';

type Target = string | pg.ClientBase;

async function withClient<T>(target: Target, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  if (typeof target !== 'string') return work(target);
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const LAST = [
  'Παπαδόπουλος',
  'Παπαδοπούλου',
  'Γεωργίου',
  'Νικολάου',
  'Οικονόμου',
  'Δημητρίου',
  'Ιωάννου',
  'Βασιλείου',
  'Αθανασίου',
  'Χριστοδούλου',
  'Κωνσταντίνου',
  'Μακρής',
  'Αλεξίου',
  'Σταυρόπουλος',
  'Ζαχαρίου',
];
export const FIRST = [
  'Μαρία',
  'Γιώργος',
  'Ελένη',
  'Δημήτρης',
  'Κατερίνα',
  'Νίκος',
  'Σοφία',
  'Κώστας',
  'Αγγελική',
  'Παναγιώτης',
  'Ιωάννα',
  'Χρήστος',
];

/** N operators of the first company, in batches of 5,000 rows. */
export async function generateOperators(target: Target, count: number): Promise<void> {
  await withClient(target, async (client) => {
    const { rows } = await client.query<{ id: number }>('SELECT id FROM companies ORDER BY id LIMIT 1');
    const companyId = rows[0]?.id;
    for (let start = 0; start < count; start += 5000) {
      const n = Math.min(5000, count - start);
      await client.query(
        `WITH created AS (
           INSERT INTO users (username, password_hash, firstname, lastname, email, kind, createuser)
           SELECT 'op' || ($1::int + g), NULL, ($2::text[])[1 + (($1::int + g) % array_length($2::text[], 1))],
                  ($3::text[])[1 + ((($1::int + g) / 7) % array_length($3::text[], 1))] || ' ' || ($1::int + g),
                  'op' || ($1::int + g) || '@deya.example', 2, 'bench'
           FROM generate_series(1, $4::int) g
           RETURNING id)
         INSERT INTO company_users (company_id, user_id) SELECT $5, id FROM created`,
        [start, FIRST, LAST, n, companyId],
      );
    }
    await client.query('ANALYZE users; ANALYZE company_users');
  });
}

const SUBJECTS = [
  'Αίτηση σύνδεσης ύδρευσης',
  'Αναφορά διαρροής στο δίκτυο',
  'Αίτηση διακανονισμού οφειλών',
  'Ένσταση για λογαριασμό ύδρευσης',
  'Βεβαίωση μη οφειλής',
  'Αλλαγή στοιχείων υπόχρεου',
  'Προσφορά προμήθειας υδρομέτρων',
  'Απόφαση διοικητικού συμβουλίου',
  'Διαβιβαστικό προς τον Δήμο',
  'Αίτηση αποσύνδεσης παροχής',
];

/**
 * N registered documents of the first company, spread over incoming and outgoing books of the years
 * `firstYear` (2019 unless given) up to this one (books are created where missing), numbered 1…n per book and year, with the
 * counters set to the last number, as years of a utility's protocol would leave them.
 */
export async function generateDocuments(
  target: Target,
  count: number,
  firstYear = 2019,
): Promise<{ companyId: number }> {
  return withClient(target, async (client) => {
    const { rows } = await client.query<{ id: number }>('SELECT id FROM companies ORDER BY id LIMIT 1');
    const companyId = rows[0]?.id ?? 0;
    const thisYear = new Date().getFullYear();
    const books: { id: number; year: number; booktype: number }[] = [];
    for (let year = firstYear; year <= thisYear; year += 1) {
      for (const booktype of [1, 2]) {
        const found = await client.query<{ id: number }>(
          'SELECT id FROM protocol_books WHERE company_id = $1 AND year = $2 AND booktype = $3',
          [companyId, year, booktype],
        );
        const id =
          found.rows[0]?.id ??
          (
            await client.query<{ id: number }>(
              `INSERT INTO protocol_books (company_id, descr, year, booktype, is_active, createuser)
               VALUES ($1, $2, $3, $4, true, 'bench') RETURNING id`,
              [companyId, `${booktype === 1 ? 'Εισερχόμενα' : 'Εξερχόμενα'} ${year}`, year, booktype],
            )
          ).rows[0]?.id;
        if (id) books.push({ id, year, booktype });
      }
    }
    const perBook = Math.ceil(count / books.length);
    let made = 0;
    for (const book of books) {
      const start = (
        await client.query<{ last: number }>(
          'SELECT coalesce(max(last), 0) AS last FROM protocol_counters WHERE book_id = $1 AND year = $2',
          [book.id, book.year],
        )
      ).rows[0]?.last;
      const n = Math.min(perBook, count - made);
      if (n <= 0) break;
      for (let from = 1; from <= n; from += 20_000) {
        const size = Math.min(20_000, n - from + 1);
        await client.query(
          `INSERT INTO documents (company_id, kind, subject, state, protocol_book_id, protocol_number,
             protocol_year, protocol_date, correspondents, document_type_id, createuser)
           SELECT $1, $2, ($3::text[])[1 + (g % array_length($3::text[], 1))] || ' ' || g, 0, $4, $5::int + g,
             $6, make_timestamptz($6, 1, 1, 8, 0, 0, 'Europe/Athens') + (g::float8 / $7) * interval '360 days',
             ($8::text[])[1 + (g % array_length($8::text[], 1))] || ' ' || ($9::text[])[1 + ((g / 7) % array_length($9::text[], 1))],
             NULL, 'bench'
           FROM generate_series($10::int, $11::int) g`,
          [
            companyId,
            book.booktype === 1 ? 0 : 1,
            SUBJECTS,
            book.id,
            start ?? 0,
            book.year,
            n,
            LAST,
            FIRST,
            from,
            from + size - 1,
          ],
        );
      }
      await client.query(
        `INSERT INTO protocol_counters (book_id, year, last) VALUES ($1, $2, $3)
         ON CONFLICT (book_id, year) DO UPDATE SET last = excluded.last`,
        [book.id, book.year, (start ?? 0) + n],
      );
      made += n;
      process.stdout.write(`\r  ${made} documents`);
    }
    process.stdout.write('\n');
    await client.query('ANALYZE documents; ANALYZE protocol_counters');
    return { companyId };
  });
}

/**
 * The water register of a utility of `count` consumers for the first company (its demo encoding
 * code: sector 2 – route 3 – number 5): 10 sectors of 20 routes each, one owner (trader) and one
 * installed meter per consumer, owners named from the Greek name lists. Consumer g sits on route
 * g % 200 with number g / 200 + 1, so an import can add numbers after `count / 200` on every route.
 */
export async function generateConsumers(target: Target, count: number): Promise<{ companyId: number }> {
  return withClient(target, async (client) => {
    const { rows } = await client.query<{ id: number }>('SELECT id FROM companies ORDER BY id LIMIT 1');
    const companyId = rows[0]?.id ?? 0;
    await client.query(
      `INSERT INTO water_sectors (company_id, code, description, createuser)
       SELECT $1, lpad(g::text, 2, '0'), 'Τομέας ' || g, 'bench' FROM generate_series(1, 10) g
       WHERE NOT EXISTS (SELECT 1 FROM water_sectors s WHERE s.company_id = $1 AND s.code = lpad(g::text, 2, '0'))`,
      [companyId],
    );
    await client.query(
      `INSERT INTO water_routes (company_id, sector_id, code, description, reading_order, createuser)
       SELECT $1, s.id, lpad(g::text, 3, '0'), 'Δρομολόγιο ' || s.code || '/' || g, g * 10, 'bench'
       FROM water_sectors s, generate_series(1, 20) g
       WHERE s.company_id = $1 AND s.code ~ '^(0[1-9]|10)$'
         AND NOT EXISTS (SELECT 1 FROM water_routes r WHERE r.sector_id = s.id AND r.code = lpad(g::text, 3, '0'))`,
      [companyId],
    );
    for (let from = 0; from < count; from += 10_000) {
      const to = Math.min(count, from + 10_000) - 1;
      await client.query(
        `WITH slots AS (
           SELECT row_number() OVER (ORDER BY s.code, r.code) - 1 AS slot, s.id AS sector_id, r.id AS route_id,
                  s.code || '-' || r.code AS prefix
           FROM water_routes r JOIN water_sectors s ON s.id = r.sector_id
           WHERE r.company_id = $1 AND s.code ~ '^(0[1-9]|10)$' AND r.code ~ '^0(0[1-9]|1[0-9]|20)$'),
         rows AS (
           SELECT g, ($2::text[])[1 + (g % array_length($2::text[], 1))] AS firstname,
                  ($3::text[])[1 + ((g / 7) % array_length($3::text[], 1))] AS lastname
           FROM generate_series($4::int, $5::int) g),
         owners AS (
           INSERT INTO traders (company_id, individual, lastname, firstname, fullname, createuser)
           SELECT $1, true, lastname, firstname, lastname || ' ' || firstname || ' ' || g, 'bench'
           FROM rows ORDER BY g
           RETURNING id, (regexp_match(fullname, '(\\d+)$'))[1]::int AS g),
         consumers AS (
           INSERT INTO water_consumers (company_id, code, sector_id, route_id, route_position, owner_id,
             supply_address, supply_postal_code, status, connection_date, createuser)
           SELECT $1, sl.prefix || '-' || lpad((o.g / 200 + 1)::text, 5, ' '), sl.sector_id, sl.route_id,
             o.g / 200 + 1, o.id, 'Οδός ' || (o.g % 97 + 1) || ' αρ. ' || (o.g % 151 + 1), '62042', 1,
             date '2010-01-01' + (o.g % 5000), 'bench'
           FROM owners o JOIN slots sl ON sl.slot = o.g % 200
           RETURNING id, route_position, connection_date, code),
         meters AS (
           INSERT INTO water_meters (company_id, serial_number, kind, digits, createuser)
           SELECT $1, 'BM-' || replace(code, ' ', '0'), 1, 5, 'bench' FROM consumers
           RETURNING id, serial_number)
         INSERT INTO water_meter_installations (company_id, consumer_id, meter_id, installed_on, initial_reading, createuser)
         SELECT $1, c.id, m.id, c.connection_date, 0, 'bench'
         FROM consumers c JOIN meters m ON m.serial_number = 'BM-' || replace(c.code, ' ', '0')`,
        [companyId, FIRST, LAST, from, to],
      );
      process.stdout.write(`\r  ${to + 1} consumers`);
    }
    process.stdout.write('\n');
    await client.query(
      'ANALYZE traders; ANALYZE water_consumers; ANALYZE water_meters; ANALYZE water_meter_installations',
    );
    return { companyId };
  });
}

/**
 * A billed period for the generated consumers (run after `generateConsumers` on a database seeded with
 * the demo tariffs): each consumer gets a property usage (85% household, 12% business, 3% municipal),
 * the demo invoice policy, a sewerage indicator (90% connected), a pipe diameter (mostly ½"), a social
 * or vulnerable-group regulation for 6% of them, and one reading of its meter in `period` of `year` on
 * every route (periods closed, state 9) with consumptions 0–139 m³, so all bands, the minimum
 * consumption and both sewerage modes are billed. Set-based: five statements whatever the size.
 */
export async function generateBillingPeriod(
  url: string,
  companyId: number,
  key: { year: number; period: number; months: number; from: string; to: string },
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const coded = async (table: string) =>
      new Map(
        (
          await client.query<{ code: string; id: number }>(
            `SELECT code, id FROM ${table} WHERE company_id = $1`,
            [companyId],
          )
        ).rows.map((r) => [r.code, r.id]),
      );
    const usage = await coded('water_property_usages');
    const sewerage = await coded('water_sewerage_indicators');
    const diameter = await coded('water_pipe_diameters');
    const regulation = await coded('water_special_regulations');
    const policy = (
      await client.query<{ id: number }>(
        'SELECT min(id) AS id FROM water_invoice_policies WHERE company_id = $1',
        [companyId],
      )
    ).rows[0]?.id;
    await client.query(
      `UPDATE water_consumers SET
         property_usage_id = CASE WHEN id % 100 < 85 THEN $2::int WHEN id % 100 < 97 THEN $3::int ELSE $4::int END,
         invoice_policy_id = $5,
         sewerage_indicator_id = CASE WHEN id % 10 < 9 THEN $6::int ELSE $7::int END,
         pipe_diameter_id = CASE id % 20 WHEN 0 THEN $8::int WHEN 1 THEN $9::int WHEN 2 THEN $10::int ELSE $11::int END,
         special_regulation_id = CASE id % 50 WHEN 0 THEN $12::int WHEN 1 THEN $13::int WHEN 2 THEN $14::int END
       WHERE company_id = $1`,
      [
        companyId,
        usage.get('OIK'),
        usage.get('EPA'),
        usage.get('DIM'),
        policy,
        sewerage.get('SYN'),
        sewerage.get('MSY'),
        diameter.get('1'),
        diameter.get('112'),
        diameter.get('2'),
        diameter.get('12'),
        regulation.get('POLY'),
        regulation.get('TRIT'),
        regulation.get('EYP'),
      ],
    );
    await client.query(
      `INSERT INTO readout_route_periods (company_id, route_id, year, period, months, from_date, to_date, state, createuser)
       SELECT $1, id, $2, $3, $4, $5, $6, 9, 'bench' FROM water_routes WHERE company_id = $1
       ON CONFLICT DO NOTHING`,
      [companyId, key.year, key.period, key.months, key.from, key.to],
    );
    await client.query(
      `INSERT INTO readout_readings (company_id, route_period_id, consumer_id, meter_id, reading, read_on, source,
         previous_reading, consumption, basis, createuser)
       SELECT $1, p.id, c.id, i.meter_id, (c.id * 13) % 50000 + (c.id * 37) % 140, $4::date - (c.id % 20), 1,
         (c.id * 13) % 50000, (c.id * 37) % 140, 'normal', 'bench'
       FROM water_consumers c
       JOIN water_meter_installations i ON i.consumer_id = c.id
       JOIN readout_route_periods p ON p.company_id = $1 AND p.route_id = c.route_id AND p.year = $2 AND p.period = $3
       WHERE c.company_id = $1
       ON CONFLICT DO NOTHING`,
      [companyId, key.year, key.period, key.to],
    );
    await client.query('ANALYZE water_consumers; ANALYZE readout_route_periods; ANALYZE readout_readings');
  } finally {
    await client.end();
  }
}
