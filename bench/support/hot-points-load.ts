/**
 * The child process of {@link import('./hot-points.js').publishHotPointsFromChild}: the devices' MQTT clients run
 * here, not in the server's process, so their CPU does not compete with the server's event loop (on 2 cores a
 * load generator in the same process measured the client as much as the server).
 *
 * Protocol over the IPC channel: the parent sends a {@link THotPointsJob}; the child connects every device and answers
 * `{ type: 'connected' }`; on `{ type: 'start' }` it publishes and answers one {@link THotPointsResult}, then exits.
 */
import { topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { connectDevices } from './devices.js';
import { epochNow, pointValue, type THotPointsJob, type THotPointsResult } from './hot-points.js';

async function publish(job: THotPointsJob, clients: readonly MqttClient[]): Promise<THotPointsResult> {
  const sentAt: Record<number, number[]> = {};
  const ackLatencies: number[] = [];
  const ackSentAtS: number[] = [];
  const measuredFrom = performance.now() + job.warmupS * 1000;
  const stopAt = measuredFrom + job.seconds * 1000;
  let sent = 0;
  let lastAckAt = measuredFrom;
  await Promise.all(
    clients.map(async (client, di) => {
      const d = job.devices[di] as { id: number; tangramId: string };
      const times: number[] = [];
      sentAt[d.id] = times;
      const acks: Promise<void>[] = [];
      await new Promise((r) => setTimeout(r, Math.random() * job.periodMs));
      // On schedule, not after the previous PUBACK: the offered rate is offered even when acknowledgements lag.
      for (let i = 0, next = performance.now(); next < stopAt; i++, next += job.periodMs) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        const t0 = performance.now();
        const measured = t0 >= measuredFrom;
        times.push(measured ? epochNow() : Number.NaN);
        if (measured) sent += 1;
        const payload = JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [pointValue(i)] });
        acks.push(
          client.publishAsync(topics.telemetry(d.tangramId), payload, { qos: 1 }).then(() => {
            if (!measured) return;
            lastAckAt = performance.now();
            ackLatencies.push(lastAckAt - t0);
            ackSentAtS.push((t0 - measuredFrom) / 1000);
          }),
        );
      }
      await Promise.all(acks);
    }),
  );
  return { type: 'result', sent, acked: ackLatencies.length, ackLatencies, ackSentAtS, sentAt, seconds: (lastAckAt - measuredFrom) / 1000 };
}

let clients: MqttClient[] = [];
let job: THotPointsJob | null = null;
process.on('message', (msg: THotPointsJob | { type: 'start' }) => {
  void (async () => {
    if (msg.type === 'job') {
      job = msg;
      clients = await connectDevices(msg.mqttPort, msg.devices);
      process.send?.({ type: 'connected' });
      return;
    }
    if (!job) throw new Error('start before job');
    const result = await publish(job, clients);
    await Promise.all(clients.map((c) => c.endAsync(true)));
    process.send?.(result, () => process.exit(0));
  })().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
