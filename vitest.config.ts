import { defineConfig } from 'vitest/config';

// Two tiers (STYLE.md): unit tests beside the code (*.test.ts), integration tests against a real database,
// broker and SMTP server (*.int.test.ts). Integration files share their worker's module graph (isolate: false):
// each file starts its own server on its own database, nothing is kept in module state, and importing the server
// once per worker instead of once per file halves the run. `npm test` runs integration twice, side by side: PGlite, and
// PostgreSQL when DATABASE_URL is set (TEST_DB=postgres) — one after the other they took 384 s and 332 s in CI,
// side by side 529 s together on a machine like it. Browser e2e lives in e2e/ with its own config.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          // Unit files share their worker's module graph too: importing it once per file was 50 of the 90 s the run
          // took; a file's vi.mock still applies to it (vitest re-evaluates a mocked module for the file).
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/*/src/**/*.int.test.ts', 'apps/*/test/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 90_000,
          pool: 'forks',
          isolate: false,
          maxWorkers: 2,
          // A run naming unit and integration files together runs the projects one after the other (vitest refuses
          // two projects with different worker counts in one group).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
