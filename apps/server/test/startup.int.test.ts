/**
 * `npm start` behaviour as a newcomer meets it: the real entry point in a child process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB_KIND } from './helpers.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function runMain(env: Record<string, string>, until: RegExp, timeoutMs = 60_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    // The embedded start-up is under test: the suite's own DATABASE_URL / MQTT_URL must not leak into the child.
    const { DATABASE_URL: _db, MQTT_URL: _mqtt, ...inherited } = process.env;
    // As `npm run start:server` starts it: node itself with tsx's loader, no tsx process relaying signals in between.
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: { ...inherited, LOG_LEVEL: 'info', DEMO: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let signalled = false;
    const onData = (d: Buffer) => {
      out += d.toString();
      // Once: the server's answer to SIGTERM is under test, not to a second one.
      if (!signalled && until.test(out)) {
        signalled = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

// The child never sees the suite's DATABASE_URL (it starts embedded, on PGlite): the PostgreSQL run would repeat the
// PGlite run's four start-ups exactly, so only the PGlite run has them.
describe.skipIf(TEST_DB_KIND === 'postgres')('server start-up (child process)', () => {
  let blocker: Server;
  let takenPort: number;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    takenPort = (blocker.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => blocker.close(() => r())));

  // A port is found taken only at listen, after the child compiled the server (tsx) and migrated PGlite: on a loaded
  // 2-core machine that alone can take over 30 s.
  it('a taken PORT gives one clear line naming the variable, not a stack trace', { timeout: 70_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-port-'));
    const { code, out } = await runMain({ PORT: String(takenPort), MQTT_PORT: '0', DATA_DIR: dataDir }, /$^/);
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`port ${takenPort} is already in use: set PORT`));
    expect(out).not.toMatch(/\n\s+at /);
  });

  it('a taken MQTT_PORT names MQTT_PORT', { timeout: 70_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-port-'));
    const { code, out } = await runMain({ PORT: '0', MQTT_PORT: String(takenPort), DATA_DIR: dataDir }, /$^/);
    expect(code).toBe(1);
    expect(out).toMatch(/set MQTT_PORT/);
  });

  it('a bad variable is named in one line', { timeout: 70_000 }, async () => {
    const { code, out } = await runMain({ PORT: 'x' }, /$^/);
    expect(code).toBe(1);
    expect(out).toMatch(/tessera: invalid PORT/);
  });

  it('starts on PGlite, says where it is, and stops cleanly on SIGTERM', { timeout: 70_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-start-'));
    const { code, out } = await runMain({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir }, /Tessera is up/);
    expect(out).toMatch(/Tessera is up/);
    expect(code).toBe(0);
  });
});
