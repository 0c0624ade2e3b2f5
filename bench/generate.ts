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
