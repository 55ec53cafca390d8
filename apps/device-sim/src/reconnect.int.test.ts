/**
 * The simulator's devices keep reconnecting (reconnect.ts) against a real Aedes whose authentication the test
 * switches: refused with "not authorised" or "server unavailable" after having been connected, a device comes back
 * on its own, with its command subscription, once the broker accepts it again.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { topics } from '@tessera/contracts';
import { Aedes, type AuthenticateError } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from './index.js';

const DEVICE = { tangramId: 'SIMRECONNECT01', secret: 's3cret', keys: ['temperature'] };

// No database involved: the PostgreSQL run of the integration suite skips it.
describe.skipIf(process.env.TEST_DB === 'postgres')('simulator reconnection after a refused CONNACK', () => {
  let aedes: Aedes;
  let tcp: Server;
  let url: string;
  /** 0 accepts; otherwise the CONNACK return code of the refusal. */
  let answer = 0;
  let refusals = 0;

  beforeAll(async () => {
    aedes = await Aedes.createBroker({
      authenticate: (_client, _username, _password, done) => {
        if (answer === 0) return done(null, true);
        refusals += 1;
        done(Object.assign(new Error('refused'), { returnCode: answer }) as AuthenticateError, false);
      },
    });
    tcp = createServer((socket) => aedes.handle(socket));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', () => resolve()));
    url = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
  });

  const waitFor = async (check: () => boolean, timeoutMs = 15_000) => {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('comes back after "not authorised" and "server unavailable", and answers commands again', { timeout: 30_000 }, async () => {
    const sim = await startSimulator({ url, devices: [DEVICE], rateHz: 5, statusPeriodMs: 60_000 });
    try {
      await waitFor(() => sim.stats().acked > 0);
      answer = 5;
      // Aedes keeps its connected clients but does not type them.
      const { clients } = aedes as unknown as { clients: Record<string, { close(): void }> };
      for (const client of Object.values(clients)) client.close();
      await waitFor(() => refusals >= 1);
      answer = 3;
      await waitFor(() => refusals >= 2);
      const ackedWhileRefused = sim.stats().acked;
      answer = 0;
      await waitFor(() => sim.stats().acked > ackedWhileRefused);
      expect(sim.stats().refusals).toBeGreaterThanOrEqual(2);

      const replies: string[] = [];
      aedes.on('publish', (packet) => {
        if (packet.topic === topics.commandReply(DEVICE.tangramId, 'r1')) replies.push(packet.payload.toString());
      });
      await waitFor(() => {
        aedes.publish(
          {
            cmd: 'publish',
            topic: topics.command(DEVICE.tangramId, 'r1'),
            payload: '{"name":"getDeviceInfo"}',
            qos: 0,
            retain: false,
            dup: false,
          },
          () => undefined,
        );
        return replies.length > 0;
      });
      expect(JSON.parse(replies[0])).toMatchObject({ ok: true });
    } finally {
      await sim.stop(0);
    }
  });

  it('waits out "server unavailable" at its first connection, but fails at once for wrong credentials', { timeout: 30_000 }, async () => {
    answer = 3;
    const starting = startSimulator({ url, devices: [DEVICE], rateHz: 5 });
    const before = refusals;
    await waitFor(() => refusals > before);
    answer = 0;
    const sim = await starting;
    await waitFor(() => sim.stats().acked > 0);
    await sim.stop(0);

    answer = 5;
    await expect(startSimulator({ url, devices: [DEVICE], rateHz: 5 })).rejects.toMatchObject({ code: 5 });
    answer = 0;
  });
});
