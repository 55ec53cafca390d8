import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { commandArgs, protocolDocLines, runCommand as run } from '../../../test/documented-commands.js';
import { buildLorawanWebhook, buildVendor } from '../../../test/factories.js';
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
    const created = await buildLorawanWebhook(server, vendor.token, {
      projectId: project.projectId,
      tangramId: dev.tangramId,
      devEui: '0101010101010101',
    });
    const args = commandArgs(lines[0]!, {
      httpUrl: server.httpUrl,
      values: { '<INTEGRATION_ID>': String(created.id), '<SECRET>': created.secret },
    });
    const { stdout } = await run('curl', args, { timeout: 10_000 });
    expect(stdout).toContain('HTTP/1.1 200');
    expect(stdout).toContain('{"stored":2}');
    // The 200 came after the commit.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
  });
});
