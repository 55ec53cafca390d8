import { defineConfig } from 'vitest/config';

// Browser e2e: one file at a time (Chromium + a server on 2 cores), generous timeouts for a cold browser.
export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
