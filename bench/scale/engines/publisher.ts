/**
 * A publisher process of the engine comparison (forked, so the load has its own CPU): `deviceCount` MQTT.js clients
 * (MQTT 3.1.1, the version every candidate's listener speaks) each keep up to `window` unacknowledged 1-point QoS 1
 * messages in flight until `seconds` after the parent's `go`, reconnecting every 300 ms when the engine goes away.
 * A message counts as acknowledged when its PUBACK arrives; the ids of those are streamed to the parent.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { messageId, telemetryPayload, telemetryTopic } from './messages.js';

/** The parent's order. */
export interface TPublisherOrder {
  type: 'order';
  mqttPort: number;
  firstDevice: number;
  deviceCount: number;
  /** Unacknowledged messages each client may have in flight. */
  window: number;
  seconds: number;
  login?: { username: string; password: string };
}

/** What the publisher reports: `connected` once, `acked` ids as they come, `done` after the last in-flight settled. */
export type TPublisherReport = { type: 'connected' } | { type: 'acked'; ids: number[] } | { type: 'done'; unsettled: number };

/** How long in-flight messages may take to settle after the publishing stopped. */
const SETTLE_MS = 20_000;
const REPORT_EVERY_MS = 500;

function send(report: TPublisherReport): Promise<void> {
  return new Promise((resolve) => process.send?.(report, () => resolve()));
}

async function run(order: TPublisherOrder): Promise<void> {
  const clients: MqttClient[] = await Promise.all(
    Array.from({ length: order.deviceCount }, (_, i) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${order.mqttPort}`, {
        clientId: `engines-d${order.firstDevice + i}`,
        clean: true,
        protocolVersion: 4,
        reconnectPeriod: 300,
        connectTimeout: 5_000,
        ...order.login,
      }),
    ),
  );
  for (const c of clients) c.on('error', () => undefined);
  await send({ type: 'connected' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));

  let acked: number[] = [];
  let inFlight = 0;
  let publishing = true;
  const flushTimer = setInterval(() => {
    if (acked.length === 0) return;
    const ids = acked;
    acked = [];
    process.send?.({ type: 'acked', ids } satisfies TPublisherReport);
  }, REPORT_EVERY_MS);

  clients.forEach((client, i) => {
    const device = order.firstDevice + i;
    const topic = telemetryTopic(device);
    let seq = 0;
    let clientInFlight = 0;
    const pump = () => {
      while (publishing && clientInFlight < order.window) {
        seq += 1;
        const id = messageId(device, seq);
        clientInFlight += 1;
        inFlight += 1;
        client.publish(topic, telemetryPayload(seq), { qos: 1 }, (err) => {
          clientInFlight -= 1;
          inFlight -= 1;
          if (!err) acked.push(id);
          // A failed publish (the broker refused it) ends this client's load instead of spinning on it.
          if (!err) setImmediate(pump);
        });
      }
    };
    pump();
  });

  await new Promise((r) => setTimeout(r, order.seconds * 1000));
  publishing = false;
  const deadline = Date.now() + SETTLE_MS;
  while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  clearInterval(flushTimer);
  await send({ type: 'acked', ids: acked });
  await send({ type: 'done', unsettled: inFlight });
  for (const c of clients) c.end(true);
  process.exit(0);
}

process.once('message', (order: TPublisherOrder) => {
  run(order).catch((err: Error) => {
    console.error(`publisher: ${err.message}`);
    process.exit(1);
  });
});
