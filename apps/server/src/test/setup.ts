import { afterAll, expect } from 'vitest';

// A connection runs one statement at a time: two at once on a transaction (a `Promise.all` over one
// `tx`) are queued by node-postgres with a deprecation warning today and refused by pg 9. The
// warning comes once per process (and files share one: `isolate: false`), so the file of the first
// test that does it fails; once that is fixed, the next one shows. One listener per process.
const shared = globalThis as { overlappingStatements?: string[] };
if (!shared.overlappingStatements) {
  const overlapping: string[] = [];
  shared.overlappingStatements = overlapping;
  process.on('warning', (warning) => {
    if (warning.message.includes('already executing a query'))
      overlapping.push(expect.getState().currentTestName ?? 'a hook outside the tests');
  });
}
const overlapping = shared.overlappingStatements;

afterAll(() => {
  if (overlapping.length > 0) {
    const where = overlapping.splice(0).join('; ');
    throw new Error(`Statements overlapped on one connection (run them one after another) in: ${where}`);
  }
});
