import { defineConfig } from 'vitest/config';

// Browser e2e: two files at a time, each with its own server and Chromium. A file spends most of its time waiting
// (for the browser to render, the server to answer, a poll to come round): one at a time kept a 2-core machine about
// a third busy, two at a time took the suite from about 13 to about 8 minutes. Generous timeouts for a cold browser.
export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll waits for what a user would wait for (a reload, a live update) on a loaded 2-core machine;
    // vitest's default of 1 s made a reload-then-check flaky under CI load.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    fileParallelism: true,
    maxWorkers: 2,
    pool: 'forks',
    // One worker imports the server once for every file (each file still starts its own server and browser).
    isolate: false,
    // Servers run on PostgreSQL when DATABASE_URL is set (CI): a test process then spends about a quarter less CPU
    // than with PGlite inside it, and integration already covers both databases. Without it, on PGlite.
    env: process.env.DATABASE_URL ? { TEST_DB: 'postgres' } : {},
  },
});
