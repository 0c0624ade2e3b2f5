import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    // One browser and one app per file. A file keeps about half a core busy (its app and its browser
    // take turns, and wait on renders and debounces), so two run at once on the 2-core machine: the
    // stage took 32 minutes one file at a time.
    fileParallelism: true,
    isolate: false,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 90_000,
    // A browser waits for debounces, requests and renders: a second (the default) is too little on
    // a busy 2-core machine, and a poll that succeeds returns at once anyway.
    expect: { poll: { timeout: 10_000 } },
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // The identity provider of the tests (support/oidc.ts) is a development stand-in on purpose: its
    // warnings that it is one (in-memory store, development keys and sign-in screens) and that
    // Node 20 is older than it likes say nothing about the product, and would repeat in every file.
    onConsoleLog: (log) => (log.startsWith('oidc-provider WARNING:') ? false : undefined),
  },
});
