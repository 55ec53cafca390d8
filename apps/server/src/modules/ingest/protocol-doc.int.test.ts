import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { paths, type TDeviceCredentials } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetryCount } from './ingest-test-kit.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';

const run = promisify(execFile);
const PROTOCOL_MD = new URL('../../../../../docs/protocol.md', import.meta.url);

/** Splits a shell command line on spaces, keeping '…' quoted words whole (enough for the documented example). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

describe(`docs/protocol.md mosquitto_pub example (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('works as documented against the embedded broker', async () => {
    const doc = await readFile(PROTOCOL_MD, 'utf8');
    const line = doc.split('\n').find((l) => l.startsWith('mosquitto_pub ') && l.includes('<TangramID>'));
    expect(line).toBeDefined();
    const [dev] = (await buildDeviceProject(server.ctx.db)).devices;
    const port = new URL(server.mqttUrl).port;
    const args = shellWords(line!)
      .slice(1)
      .map((w) => w.replace('localhost', '127.0.0.1').replaceAll('<TangramID>', dev.tangramId).replace('<secret>', dev.secret));
    args[args.indexOf('-p') + 1] = port;
    await run('/usr/bin/mosquitto_pub', args, { timeout: 10_000 });
    // mosquitto_pub exits after its PUBACK, which comes after the commit: the point is stored now.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
  });

  it('the ThingsBoard examples work as documented with an access token', async () => {
    const doc = await readFile(PROTOCOL_MD, 'utf8');
    const lines = doc.split('\n').filter((l) => l.startsWith('mosquitto_pub ') && l.includes('<ACCESS_TOKEN>'));
    expect(lines).toHaveLength(3);
    const vendor = await buildVendor(server);
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const issued = await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(dev.tangramId), { token: vendor.token });
    const port = new URL(server.mqttUrl).port;
    for (const line of lines) {
      const args = shellWords(line)
        .slice(1)
        .map((w) => w.replace('localhost', '127.0.0.1').replace('<ACCESS_TOKEN>', issued.body.access_token as string));
      args[args.indexOf('-p') + 1] = port;
      await run('/usr/bin/mosquitto_pub', args, { timeout: 10_000 });
    }
    // Each mosquitto_pub exited after its PUBACK, which comes after the commit.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(4);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
  });

  it('the ThingsBoard HTTP examples work as documented with curl', async () => {
    const doc = await readFile(PROTOCOL_MD, 'utf8');
    const lines = doc.split('\n').filter((l) => l.startsWith('curl ') && l.includes('<ACCESS_TOKEN>'));
    expect(lines).toHaveLength(2);
    const vendor = await buildVendor(server);
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const issued = await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(dev.tangramId), { token: vendor.token });
    for (const line of lines) {
      const args = shellWords(line)
        .slice(1)
        .map((w) => w.replace('http://localhost:8080', server.httpUrl).replace('<ACCESS_TOKEN>', issued.body.access_token as string));
      const { stderr } = await run('curl', args, { timeout: 10_000 });
      expect(stderr).toContain('HTTP/1.1 200');
    }
    // Each 200 came after the commit.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(2);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
  });
});
