import { execFile } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { issueCert, makeCa, type TPemPair, tlsScratchDir } from '../../../test/tls-fixture.js';
import { clientIdFor, connectMqtt, telemetryCount, waitUntil } from './ingest-test-kit.js';

/** Runs mosquitto_pub; answers its exit code and stderr. */
function mosquittoPub(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('mosquitto_pub', args, { timeout: 15_000 }, (err, _out, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

function point(value: number): string {
  return JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [value] });
}

describe(`MQTT over TLS on the embedded broker (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let dir: string;
  let ca: TPemPair;
  let otherCa: TPemPair;
  let live: TPemPair;
  let dev: TBuiltDevice;
  let url: string;
  beforeAll(async () => {
    dir = tlsScratchDir();
    ca = makeCa(dir, 'ca');
    otherCa = makeCa(dir, 'other-ca');
    const first = issueCert(dir, ca, 'server', 'localhost', 'server');
    live = { cert: `${dir}/live.crt`, key: `${dir}/live.key` };
    copyFileSync(first.cert, live.cert);
    copyFileSync(first.key, live.key);
    server = await startTestServer({
      mqttPlain: false,
      mqttTls: { port: 0, certFile: live.cert, keyFile: live.key, watchIntervalMs: 100 },
    });
    url = `mqtts://127.0.0.1:${server.mqttTlsPort}`;
    [dev] = (await buildDeviceProject(server.ctx.db)).devices;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('listens for TLS only when plain MQTT is switched off', () => {
    expect(server.mqttPort).toBeNull();
    expect(server.mqttTlsPort).toBeGreaterThan(0);
  });

  it('takes a device publish from MQTT.js trusting the CA, counted as mqtts', async () => {
    const device = await connectMqtt(url, dev.tangramId, dev.secret, { ca: readFileSync(ca.cert) });
    try {
      await device.publishAsync(topics.telemetry(dev.tangramId), point(1), { qos: 1 });
    } finally {
      await device.endAsync(true);
    }
    expect(server.messaging.ingestCounters().messagesByWay.mqtts).toBe(1);
    expect(server.messaging.ingestCounters().messagesByWay.mqtt).toBe(0);
  });

  it('takes a publish from mosquitto_pub --cafile', async () => {
    const before = await telemetryCount(server.ctx.db, dev.id);
    const res = await mosquittoPub([
      ...['-h', '127.0.0.1', '-p', String(server.mqttTlsPort), '--cafile', ca.cert],
      ...['-u', dev.tangramId, '-P', dev.secret, '-i', clientIdFor(dev.tangramId, dev.secret)],
      ...['-q', '1', '-t', topics.telemetry(dev.tangramId), '-m', point(2)],
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    await waitUntil(async () => (await telemetryCount(server.ctx.db, dev.id)) === before + 1);
  });

  it('is refused by a client that trusts another CA', async () => {
    await expect(connectMqtt(url, dev.tangramId, dev.secret, { ca: readFileSync(otherCa.cert) })).rejects.toThrow();
    const res = await mosquittoPub([
      ...['-h', '127.0.0.1', '-p', String(server.mqttTlsPort), '--cafile', otherCa.cert],
      ...[
        '-u',
        dev.tangramId,
        '-P',
        dev.secret,
        '-i',
        clientIdFor(dev.tangramId, dev.secret),
        '-t',
        topics.telemetry(dev.tangramId),
        '-m',
        point(3),
      ],
    ]);
    expect(res.code).not.toBe(0);
  });

  it('loads a renewed certificate without dropping connected devices', async () => {
    const connected: MqttClient = await connectMqtt(url, dev.tangramId, dev.secret, { ca: readFileSync(ca.cert) });
    try {
      const renewed = issueCert(dir, otherCa, 'renewed', 'localhost', 'server');
      copyFileSync(renewed.key, live.key);
      copyFileSync(renewed.cert, live.cert);
      await waitUntil(async () => {
        const probe = await connectMqtt(url, dev.tangramId, dev.secret, { ca: readFileSync(otherCa.cert) }).catch(() => null);
        await probe?.endAsync(true);
        return probe !== null;
      });
      await expect(connectMqtt(url, dev.tangramId, dev.secret, { ca: readFileSync(ca.cert) })).rejects.toThrow();
      expect(connected.connected).toBe(true);
      await connected.publishAsync(topics.telemetry(dev.tangramId), point(4), { qos: 1 });
    } finally {
      await connected.endAsync(true);
    }
  });
});
