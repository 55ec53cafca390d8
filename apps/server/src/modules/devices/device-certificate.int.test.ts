import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deviceCertificatePath, type TDeviceCertificate, topics } from '@tessera/contracts';
import type { IClientOptions } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { certFingerprint, issueCert, makeCa, type TPemPair, tlsScratchDir } from '../../../test/tls-fixture.js';
import { clientIdFor, connectMqtt, telemetryCount, waitUntil } from '../ingest/ingest-test-kit.js';
import { DEVICE_REVOKED_CHANNEL } from '../ingest/device-revocation.js';
import { listenerApplicationName } from '../../core/database-listener.js';
import { deviceCertificates } from '../../db/schema.js';
import { eq, sql } from 'drizzle-orm';

type TError = { code: string; message: string };

describe(`device certificate login over MQTT TLS (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let otherVendor: TBuiltAccount;
  let dev: TBuiltDevice;
  let other: TBuiltDevice;
  let ca: TPemPair;
  let deviceCert: TPemPair;
  let unregistered: TPemPair;
  let foreign: TPemPair;
  let url: string;

  const tlsOptions = (pair?: TPemPair): IClientOptions => ({
    ca: readFileSync(ca.cert),
    ...(pair ? { cert: readFileSync(pair.cert), key: readFileSync(pair.key) } : {}),
    password: undefined,
  });
  /** The CONNACK refusal code of a certificate login as `tangramId` with `pair`, or 0 when accepted. */
  const certLoginCode = async (tangramId: string, pair: TPemPair): Promise<number> => {
    try {
      await (await connectMqtt(url, tangramId, '', tlsOptions(pair))).endAsync(true);
      return 0;
    } catch (err) {
      return (err as { code?: number }).code ?? -1;
    }
  };
  const api = (method: 'GET' | 'PUT' | 'DELETE', tangramId: string, token?: string, body?: unknown) =>
    server.api<TDeviceCertificate & TError>(method, deviceCertificatePath(tangramId), { token, body });

  beforeAll(async () => {
    const dir = tlsScratchDir();
    ca = makeCa(dir, 'ca');
    const otherCa = makeCa(dir, 'other-ca');
    const serverCert = issueCert(dir, ca, 'server', 'localhost', 'server');
    server = await startTestServer({ mqttTls: { port: 0, certFile: serverCert.cert, keyFile: serverCert.key, caFile: ca.cert } });
    url = `mqtts://127.0.0.1:${server.mqttTlsPort}`;
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    otherVendor = await buildVendor(server);
    [dev, other] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
    deviceCert = issueCert(dir, ca, 'device', dev.tangramId, 'client');
    unregistered = issueCert(dir, ca, 'unregistered', dev.tangramId, 'client');
    foreign = issueCert(dir, otherCa, 'foreign', dev.tangramId, 'client');
  });
  afterAll(() => server?.stop());

  it('401 without a token, 403 for a user, 404 for another tenant, 400 for a malformed fingerprint', async () => {
    const fingerprint = certFingerprint(deviceCert.cert);
    expect((await api('PUT', dev.tangramId, undefined, { fingerprint })).status).toBe(401);
    expect((await api('PUT', dev.tangramId, user.token, { fingerprint })).status).toBe(403);
    expect((await api('GET', dev.tangramId, user.token)).status).toBe(403);
    expect((await api('PUT', dev.tangramId, otherVendor.token, { fingerprint })).status).toBe(404);
    expect((await api('DELETE', dev.tangramId, otherVendor.token)).status).toBe(404);
    const bad = await api('PUT', dev.tangramId, vendor.token, { fingerprint: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect((await api('GET', dev.tangramId, vendor.token)).body.fingerprint).toBeNull();
  });

  it('registers a fingerprint as openssl prints it, and refuses the same certificate for a second device (409)', async () => {
    const fingerprint = certFingerprint(deviceCert.cert);
    const printed = `sha256 Fingerprint=${fingerprint.toUpperCase().match(/../g)?.join(':')}`;
    const res = await api('PUT', dev.tangramId, vendor.token, { fingerprint: printed });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tangram_id: dev.tangramId, fingerprint });
    expect((await api('GET', dev.tangramId, vendor.token)).body.fingerprint).toBe(fingerprint);
    const taken = await api('PUT', other.tangramId, vendor.token, { fingerprint });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('CONFLICT');
  });

  it('logs the device in by its certificate alone (MQTT.js), and still by its secret', async () => {
    const before = await telemetryCount(server.ctx.db, dev.id);
    const device = await connectMqtt(url, dev.tangramId, '', tlsOptions(deviceCert));
    try {
      await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [1] }), {
        qos: 1,
      });
    } finally {
      await device.endAsync(true);
    }
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(before + 1);
    await (await connectMqtt(url, dev.tangramId, dev.secret, { ca: readFileSync(ca.cert) })).endAsync(true);
  });

  it('logs the device in from mosquitto_pub --cert/--key without a password', async () => {
    const before = await telemetryCount(server.ctx.db, dev.id);
    const code = await new Promise<number>((resolve) =>
      execFile(
        'mosquitto_pub',
        [
          ...['-h', '127.0.0.1', '-p', String(server.mqttTlsPort), '--cafile', ca.cert, '--cert', deviceCert.cert, '--key', deviceCert.key],
          ...['-u', dev.tangramId, '-i', clientIdFor(dev.tangramId, ''), '-q', '1', '-t', topics.telemetry(dev.tangramId)],
          ...['-m', JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [2] })],
        ],
        { timeout: 15_000 },
        (err) => resolve(err ? Number((err as { code?: number }).code ?? 1) : 0),
      ),
    );
    expect(code).toBe(0);
    await waitUntil(async () => (await telemetryCount(server.ctx.db, dev.id)) === before + 1);
  });

  it('refuses (CONNACK 5) a certificate of another CA, an unregistered one, and one registered to another device', async () => {
    expect(await certLoginCode(dev.tangramId, foreign)).toBe(5);
    expect(await certLoginCode(dev.tangramId, unregistered)).toBe(5);
    expect(await certLoginCode(other.tangramId, deviceCert)).toBe(5);
    expect(await certLoginCode(dev.tangramId, deviceCert)).toBe(0);
  });

  it('revoking the fingerprint drops the connected device and refuses its certificate from then on', async () => {
    const connected = await connectMqtt(url, dev.tangramId, '', { ...tlsOptions(deviceCert), reconnectPeriod: 0 });
    const closed = new Promise<void>((resolve) => connected.once('close', () => resolve()));
    const res = await api('DELETE', dev.tangramId, vendor.token);
    expect(res.status).toBe(204);
    await closed;
    await connected.endAsync(true);
    expect(await certLoginCode(dev.tangramId, deviceCert)).toBe(5);
    expect((await api('GET', dev.tangramId, vendor.token)).body.fingerprint).toBeNull();
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'closes a certificate session whose certificate was removed unheard, once the revocation listener listens again',
    async () => {
      expect((await api('PUT', dev.tangramId, vendor.token, { fingerprint: certFingerprint(deviceCert.cert) })).status).toBe(200);
      const connected = await connectMqtt(url, dev.tangramId, '', { ...tlsOptions(deviceCert), reconnectPeriod: 0 });
      const closed = new Promise<void>((resolve) => connected.once('close', () => resolve()));
      // Removed with no notification, as when one is sent while this replica is not listening.
      await server.ctx.db.delete(deviceCertificates).where(eq(deviceCertificates.deviceId, dev.id));
      await new Promise((r) => setTimeout(r, 300));
      expect(connected.connected).toBe(true);
      await server.ctx.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${listenerApplicationName(DEVICE_REVOKED_CHANNEL)}`,
      );
      await closed;
      await connected.endAsync(true);
    },
    20_000,
  );
});
