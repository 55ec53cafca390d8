// Runs the given command only when DATABASE_URL is set, with TEST_DB=postgres, so `npm test` covers real
// PostgreSQL in CI (which sets DATABASE_URL) and stays PGlite-only on a laptop without one.
import { spawnSync } from 'node:child_process';

if (!process.env.DATABASE_URL) {
  console.log('DATABASE_URL is not set: skipping the PostgreSQL integration run (PGlite already ran).');
  process.exit(0);
}
const [cmd, ...args] = process.argv.slice(2);
const result = spawnSync(cmd, args, {
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: { ...process.env, TEST_DB: 'postgres' },
});
process.exit(result.status ?? 1);
