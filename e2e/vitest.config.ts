import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // One browser and one app per file; files run one after another on the 2-core machine.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 90_000,
    // A browser waits for debounces, requests and renders: a second (the default) is too little on
    // a busy 2-core machine, and a poll that succeeds returns at once anyway.
    expect: { poll: { timeout: 10_000 } },
  },
});
