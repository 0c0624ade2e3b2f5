// Export benchmark (never part of `npm test`): `npx tsx bench/export.ts`.
// Renders 100,000 generated rows (batches of 1000) to csv and xlsx, and 10,000 to pdf, into a sink that
// drops the bytes, printing rows/s and the peak RSS while each runs: memory must stay bounded.
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ExportColumn, type ExportFormat, renderExport } from '@protocol/server/exports';

const BATCH = 1000;

const columns: ExportColumn[] = [
  { id: 'code', label: 'Κωδικός', type: 'number' },
  { id: 'lastName', label: 'Επώνυμο', type: 'text' },
  { id: 'firstName', label: 'Όνομα', type: 'text' },
  { id: 'address', label: 'Διεύθυνση', type: 'text' },
  { id: 'area', label: 'Περιοχή', type: 'enum' },
  { id: 'active', label: 'Ενεργός', type: 'boolean' },
  { id: 'since', label: 'Ημερομηνία σύνδεσης', type: 'date' },
  { id: 'balance', label: 'Υπόλοιπο', type: 'money' },
  { id: 'notes', label: 'Σημειώσεις', type: 'text' },
];

const lastNames = ['Παπαδοπούλου', 'Οικονόμου', 'Γεωργιάδης', 'Κωνσταντινίδου', 'Αλεξανδρόπουλος'];
const firstNames = ['Μαρία', 'Γιώργος', 'Ελένη', 'Δημήτρης', 'Αικατερίνη', 'Ιωάννης'];
const areas = ['Κέντρο', 'Βόρειος Τομέας', 'Νότιος Τομέας', 'Βιομηχανική Περιοχή'];

async function* rows(count: number): AsyncGenerator<Record<string, unknown>[]> {
  for (let start = 0; start < count; start += BATCH) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      batch.push({
        code: 100_000 + i,
        lastName: lastNames[i % lastNames.length],
        firstName: firstNames[i % firstNames.length],
        address: `Οδός Αγίου Δημητρίου ${i % 300}, ${10_000 + (i % 90_000)} Λάρισα`,
        area: areas[i % areas.length],
        active: i % 3 !== 0,
        since: `20${10 + (i % 16)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        balance: `${i % 5 === 0 ? '-' : ''}${(i * 7919) % 100_000}.${String(i % 100).padStart(2, '0')}`,
        notes: i % 10 === 0 ? 'Αίτηση αλλαγής υδρομέτρου μετά από βλάβη, επικοινωνία με τον καταναλωτή' : '',
      });
    }
    yield batch;
  }
}

/** A sink that drops the bytes (like /dev/null) and counts them. */
function sink() {
  const counter = { bytes: 0 };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      counter.bytes += chunk.length;
      callback();
    },
  });
  return { stream, counter };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function run(format: ExportFormat, count: number) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  let live = 0; // heap + buffers: what the export holds, apart from garbage not yet collected
  const sample = () => {
    const memory = process.memoryUsage();
    peak = Math.max(peak, memory.rss);
    live = Math.max(live, memory.heapUsed + memory.arrayBuffers);
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const rendered = renderExport({ format, title: 'Καταναλωτές', language: 'el', columns, rows: rows(count) });
  const { stream, counter } = sink();
  await pipeline(rendered.stream, stream);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  console.log(
    `${format.padEnd(6)} ${String(count).padStart(7)} rows  ${(count / seconds).toFixed(0).padStart(7)} rows/s  ` +
      `${seconds.toFixed(2).padStart(6)} s  ${mb(counter.bytes).padStart(7)} out  ` +
      `RSS before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)}); peak heap+buffers ${mb(live)}`,
  );
}

await run('csv', 100_000);
await run('excel', 100_000);
await run('pdf', 10_000);
