/**
 * A simulator's device over MQTT (real Aedes, real node:http file server): it subscribes to its retained
 * `devices/{id}/model`, reports on `devices/{id}/model/state`, re-reports its final state when the retained message
 * comes again after a reconnect (without downloading again), and forgets its model on an empty retained payload.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { modelDeploymentPaths, topics, type TDeviceModelMessage } from '@tessera/contracts';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from './index.js';

const DEVICE = { tangramId: 'SIMMODEL01', secret: 's3cret', keys: ['temperature'], modelFault: 'corrupt-once' as const };
const body = randomBytes(64_000);
const sha256 = createHash('sha256').update(body).digest('hex');

// No database involved: the PostgreSQL run of the integration suite skips it.
describe.skipIf(process.env.TEST_DB === 'postgres')('simulated device installing a model over MQTT', () => {
  let aedes: Aedes;
  let tcp: Server;
  let http: HttpServer;
  let mqttUrl: string;
  let httpUrl: string;
  let fileGets = 0;
  const states: unknown[] = [];

  beforeAll(async () => {
    aedes = await Aedes.createBroker();
    aedes.on('publish', (packet) => {
      if (packet.topic === topics.modelState(DEVICE.tangramId)) states.push(JSON.parse(packet.payload.toString()));
    });
    tcp = createServer((socket) => aedes.handle(socket));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', () => resolve()));
    mqttUrl = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
    http = createHttpServer((req, res) => {
      if (req.method === 'POST') return void res.writeHead(200).end(JSON.stringify({ token: 't', expires_in_s: 600 }));
      fileGets += 1;
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    http.close();
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
  });

  const waitFor = async (check: () => boolean, timeoutMs = 15_000) => {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const retain = (payload: string) =>
    new Promise<void>((resolve) =>
      aedes.publish({ cmd: 'publish', topic: topics.model(DEVICE.tangramId), payload, qos: 1, retain: true, dup: false }, () => resolve()),
    );
  const message = (attempt: number): TDeviceModelMessage => ({
    deploymentId: 5,
    attempt,
    modelId: 2,
    modelName: 'vibration-anomaly',
    framework: 'onnx',
    revision: 1,
    fileName: 'model.onnx',
    sizeBytes: body.length,
    sha256,
    url: `${httpUrl}${modelDeploymentPaths.deviceModelFile(5)}`,
    tokenUrl: `${httpUrl}${modelDeploymentPaths.deviceToken}`,
  });

  it('installs after a corrupted first attempt, re-reports after a reconnect, forgets on an empty payload', {
    timeout: 30_000,
  }, async () => {
    await retain(JSON.stringify(message(1)));
    const sim = await startSimulator({ url: mqttUrl, devices: [DEVICE], rateHz: 1, statusPeriodMs: 60_000 });
    try {
      await waitFor(() => states.length === 2);
      expect(states).toEqual([
        { deploymentId: 5, attempt: 1, state: 'downloading', progress: 0 },
        { deploymentId: 5, attempt: 1, state: 'failed', reason: 'sha256 mismatch' },
      ]);
      await retain(JSON.stringify(message(2)));
      await waitFor(() => states.length === 4);
      expect(states.slice(2)).toEqual([
        { deploymentId: 5, attempt: 2, state: 'downloading', progress: 0 },
        { deploymentId: 5, attempt: 2, state: 'installed', progress: 1 },
      ]);
      expect(sim.installedModel(DEVICE.tangramId)).toEqual({
        deploymentId: 5,
        attempt: 2,
        modelId: 2,
        revision: 1,
        sha256,
        bytes: body.length,
      });
      expect(sim.stats()).toMatchObject({ modelsInstalled: 1, modelsFailed: 1 });

      // Aedes keeps its connected clients but does not type them.
      const { clients } = aedes as unknown as { clients: Record<string, { close(): void }> };
      for (const client of Object.values(clients)) client.close();
      await waitFor(() => states.length === 5);
      expect(states[4]).toEqual({ deploymentId: 5, attempt: 2, state: 'installed', progress: 1 });
      expect(fileGets).toBe(2);

      await retain('');
      await waitFor(() => sim.installedModel(DEVICE.tangramId) === null);
      expect(states).toHaveLength(5);
      expect(sim.stats()).toMatchObject({ modelsInstalled: 1, modelsFailed: 1 });
    } finally {
      await sim.stop(0);
    }
  });
});
