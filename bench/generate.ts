// Large-data generators for the benchmarks.
import pg from 'pg';

const LAST = [
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
const FIRST = [
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
export async function generateOperators(url: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
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
  } finally {
    await client.end();
  }
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
 * 2019 up to this one (books are created where missing), numbered 1…n per book and year, with the
 * counters set to the last number, as years of a utility's protocol would leave them.
 */
export async function generateDocuments(url: string, count: number): Promise<{ companyId: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number }>('SELECT id FROM companies ORDER BY id LIMIT 1');
    const companyId = rows[0]?.id ?? 0;
    const thisYear = new Date().getFullYear();
    const books: { id: number; year: number; booktype: number }[] = [];
    for (let year = 2019; year <= thisYear; year += 1) {
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
  } finally {
    await client.end();
  }
}
