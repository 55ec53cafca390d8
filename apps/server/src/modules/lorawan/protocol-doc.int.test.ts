/** docs/protocol.md "LoRaWAN network servers": the documented curl line works as written, run by curl. */
import { lorawanPaths, type TLorawanIntegrationWithSecret } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { commandArgs, protocolDocLines, runCommand as run } from '../../../test/documented-commands.js';
import { buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetryCount } from '../ingest/ingest-test-kit.js';

describe(`docs/protocol.md LoRaWAN curl example (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('stores the documented ChirpStack uplink for the device with its DevEUI', async () => {
    const lines = (await protocolDocLines()).filter((l) => l.startsWith('curl ') && l.includes('<INTEGRATION_ID>'));
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
    const args = commandArgs(lines[0]!, {
      httpUrl: server.httpUrl,
      values: { '<INTEGRATION_ID>': String(created.body.id), '<SECRET>': created.body.secret },
    });
    const { stdout } = await run('curl', args, { timeout: 10_000 });
    expect(stdout).toContain('HTTP/1.1 200');
    expect(stdout).toContain('{"stored":2}');
    // The 200 came after the commit.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
  });
});
