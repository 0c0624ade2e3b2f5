import { afterAll, expect } from 'vitest';

// A connection runs one statement at a time: two at once on a transaction (a `Promise.all` over one
// `tx`) are queued by node-postgres with a deprecation warning today and refused by pg 9. The
// warning is printed once per process, so the file fails with the test that first did it.
const overlapping: string[] = [];
process.on('warning', (warning) => {
  if (warning.message.includes('already executing a query'))
    overlapping.push(expect.getState().currentTestName ?? 'a hook outside the tests');
});

afterAll(() => {
  if (overlapping.length > 0)
    throw new Error(
      `Statements overlapped on one connection (run them one after another) in: ${overlapping.join('; ')}`,
    );
});
