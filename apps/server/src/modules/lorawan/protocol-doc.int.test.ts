/** docs/protocol.md "LoRaWAN network servers": the documented curl line works as written, run by curl. */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { lorawanPaths, type TLorawanIntegrationWithSecret } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetryCount } from '../ingest/ingest-test-kit.js';

const run = promisify(execFile);
const PROTOCOL_MD = new URL('../../../../../docs/protocol.md', import.meta.url);

/** Splits a shell command line on spaces, keeping '…' quoted words whole (enough for the documented example). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe(`docs/protocol.md LoRaWAN curl example (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('stores the documented ChirpStack uplink for the device with its DevEUI', async () => {
    const doc = await readFile(PROTOCOL_MD, 'utf8');
    const lines = doc.split('\n').filter((l) => l.startsWith('curl ') && l.includes('<INTEGRATION_ID>'));
    expect(lines).toHaveLength(1);
    const vendor = await buildVendor(server);
    const project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    const [dev] = project.devices;
    const eui = await server.api('PUT', lorawanPaths.device(dev.tangramId), { token: vendor.token, body: { dev_eui: '0101010101010101' } });
    expect(eui.status).toBe(200);
    const created = await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.list(project.projectId), {
      token: vendor.token,
      body: { name: 'ChirpStack', network_server: 'chirpstack' },
    });
    const args = shellWords(lines[0]!)
      .slice(1)
      .map((w) =>
        w
          .replace('http://localhost:8080', server.httpUrl)
          .replace('<INTEGRATION_ID>', String(created.body.id))
          .replace('<SECRET>', created.body.secret),
      );
    const { stdout } = await run('curl', args, { timeout: 10_000 });
    expect(stdout).toContain('HTTP/1.1 200');
    expect(stdout).toContain('{"stored":2}');
    // The 200 came after the commit.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
  });
});
