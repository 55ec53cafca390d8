import { defineConfig } from 'vitest/config';

// Browser e2e: one file at a time (Chromium + a server on 2 cores), generous timeouts for a cold browser.
export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll waits for what a user would wait for (a reload, a live update) on a loaded 2-core machine;
    // vitest's default of 1 s made a reload-then-check flaky under CI load.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    fileParallelism: false,
    pool: 'forks',
    // One worker imports the server once for every file (each file still starts its own server and browser).
    isolate: false,
  },
});
