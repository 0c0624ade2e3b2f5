/** Greek data for the export tests and the sample files (not used by the product). */
import type { Readable } from 'node:stream';
import type { ExportColumn } from './types.ts';

export const columns5: ExportColumn[] = [
  { id: 'lastName', label: 'Επώνυμο', type: 'text' },
  { id: 'firstName', label: 'Όνομα', type: 'text' },
  { id: 'active', label: 'Ενεργός', type: 'boolean' },
  { id: 'date', label: 'Ημερομηνία', type: 'date' },
  { id: 'amount', label: 'Ποσό', type: 'money' },
];

export const rows5: Record<string, unknown>[] = [
  { lastName: 'Παπαδοπούλου', firstName: 'Μαρία', active: true, date: '2026-03-05', amount: '1234.5' },
  {
    lastName: 'Οικονόμου',
    firstName: 'Γιώργος',
    active: false,
    date: new Date('2026-11-21T10:00:00Z'),
    amount: '-7.005',
  },
  { lastName: '=SUM(A1)', firstName: 'Νίκος, "ο μικρός"', active: null, date: null, amount: null },
];

export const columns9: ExportColumn[] = [
  { id: 'code', label: 'Κωδικός', type: 'number' },
  { id: 'lastName', label: 'Επώνυμο', type: 'text' },
  { id: 'firstName', label: 'Όνομα', type: 'text' },
  { id: 'address', label: 'Διεύθυνση', type: 'text' },
  { id: 'area', label: 'Περιοχή', type: 'reference' },
  { id: 'status', label: 'Κατάσταση', type: 'enum' },
  { id: 'active', label: 'Ενεργός', type: 'boolean' },
  { id: 'since', label: 'Ημερομηνία σύνδεσης', type: 'date' },
  { id: 'balance', label: 'Υπόλοιπο', type: 'money' },
];

const lastNames = [
  'Παπαδοπούλου',
  'Οικονόμου',
  'Γεωργιάδης',
  'Κωνσταντινίδου',
  'Αλεξανδρόπουλος',
  'Χατζηγεωργίου',
  'Σταματοπούλου',
  'Ξενοφώντος',
];
const firstNames = ['Μαρία', 'Γιώργος', 'Ελένη', 'Δημήτρης', 'Αικατερίνη', 'Ιωάννης', 'Σοφία', 'Ευάγγελος'];
const streets = [
  'Οδός Ερμού',
  'Λεωφόρος Αθηνών',
  'Πλατεία Συντάγματος',
  'Οδός Αγίου Δημητρίου',
  'Οδός Ψυχάρη',
];
const areas = ['Κέντρο', 'Βόρειος Τομέας', 'Νότιος Τομέας', 'Βιομηχανική Περιοχή'];
const statuses = ['Ενεργή παροχή', 'Σε διακοπή', 'Σε αναμονή σύνδεσης'];

export function greekRow(i: number): Record<string, unknown> {
  const long = i % 7 === 3;
  return {
    code: 100_000 + i,
    lastName: lastNames[i % lastNames.length],
    firstName: firstNames[(i * 3) % firstNames.length],
    address: long
      ? `${streets[i % streets.length]} ${i + 1}, 2ος όροφος, είσοδος από την πίσω πλευρά του κτιρίου, δίπλα στο φαρμακείο`
      : `${streets[i % streets.length]} ${i + 1}`,
    area: { id: i % areas.length, name: areas[i % areas.length] },
    status: statuses[i % statuses.length],
    active: i % 3 !== 0,
    since: new Date(Date.UTC(2020 + (i % 6), i % 12, 1 + (i % 28))),
    balance: `${i % 5 === 0 ? '-' : ''}${(i * 7919) % 100_000}.${String((i * 37) % 100).padStart(2, '0')}`,
  };
}

export async function* batches(
  count: number,
  size: number,
  make: (i: number) => Record<string, unknown>,
): AsyncGenerator<Record<string, unknown>[]> {
  for (let start = 0; start < count; start += size) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(count, start + size); i++) batch.push(make(i));
    yield batch;
  }
}

export async function* once<T>(rows: T[]): AsyncGenerator<T[]> {
  yield rows;
}

export async function readAll(stream: Readable | NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Batches that count how many have been pulled: shows a writer reads rows as it goes. */
export function countingBatches(count: number, size: number, make: (i: number) => Record<string, unknown>) {
  const state = { pulled: 0, total: Math.ceil(count / size) };
  async function* rows(): AsyncGenerator<Record<string, unknown>[]> {
    for await (const batch of batches(count, size, make)) {
      state.pulled++;
      yield batch;
    }
  }
  return { rows: rows(), state };
}

/** Reads the stream's first chunk, then answers how many batches had been pulled, and drains the rest. */
export async function pulledAtFirstChunk(
  stream: Readable | NodeJS.ReadableStream,
  state: { pulled: number },
) {
  let atFirst = -1;
  for await (const _chunk of stream) {
    if (atFirst < 0) atFirst = state.pulled;
  }
  return atFirst;
}

export async function* failingRows(): AsyncGenerator<Record<string, unknown>[]> {
  yield [{ lastName: 'Παπαδοπούλου' }];
  throw new Error('database went away');
}
