import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The files of a pass share one process: each test app is built from scratch, and importing the
    // whole server again for each of 110 files cost four minutes a pass.
    isolate: false,
    // The AWS SDK warns once per process that its releases after January 2027 need Node 22; the
    // product supports Node 20 (engines) and says so in the README, so the tests run without it.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
