/**
 * bench/scale's device load, in its own process (forked by run.ts): every device publishes 1-point QoS 1 telemetry
 * (`temperature`, ts = its start + sequence number, so each point is unique per device) with WINDOW publishes
 * unacknowledged at most, through any broker outage: a publish not acknowledged within PUBACK_TIMEOUT_MS (or lost
 * with its connection) is sent again with the same ts, as a device's QoS 1 retry does. Reports the acknowledged
 * count each second over IPC, and on `stop` writes every acknowledged ts per device to the file it was given.
 *
 * IPC in: { kind: 'start', url, devices: [{ tangramId, secret }], window, outFile, baseTs } then { kind: 'stop' }.
 * IPC out: { kind: 'ready' }, { kind: 'tick', acked, connected } each second, { kind: 'done' }.
 */
import { writeFileSync } from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';

const PUBACK_TIMEOUT_MS = 5_000;

interface TStart {
  kind: 'start';
  url: string;
  devices: { tangramId: string; secret: string }[];
  window: number;
  outFile: string;
  /** The first point's ts (epoch ms); each device counts up from it. */
  baseTs: number;
}

let stopping = false;
let acked = 0;
const ackedTs = new Map<string, number[]>();
const clients: MqttClient[] = [];
const workers: Promise<void>[] = [];

function publishOnce(client: MqttClient, topic: string, payload: string): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), PUBACK_TIMEOUT_MS);
    client.publish(topic, payload, { qos: 1 }, (err) => {
      clearTimeout(timer);
      resolve(!err);
    });
  });
}

async function device(url: string, d: { tangramId: string; secret: string }, window: number, base: number): Promise<void> {
  const client = mqtt.connect(url, {
    username: d.tangramId,
    password: d.secret,
    clientId: d.tangramId,
    protocolVersion: 4,
    reconnectPeriod: 500,
    connectTimeout: 5_000,
  });
  client.on('error', () => undefined);
  clients.push(client);
  const done: number[] = [];
  ackedTs.set(d.tangramId, done);
  const topic = `devices/${d.tangramId}/telemetry`;
  let next = 0;
  const retry: number[] = [];
  const lane = async () => {
    while (!stopping) {
      if (!client.connected) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const seq = retry.length > 0 ? (retry.shift() as number) : next++;
      const ts = base + seq;
      const ok = await publishOnce(client, topic, JSON.stringify([{ key: 'temperature', ts, vs: [20 + (seq % 10)] }]));
      if (ok) {
        done.push(ts);
        acked += 1;
      } else retry.push(seq);
    }
  };
  await Promise.all(Array.from({ length: window }, lane));
}

let outFile = '';
let tick: NodeJS.Timeout | null = null;

process.on('message', (msg: TStart | { kind: 'stop' }) => {
  if (msg.kind === 'start') {
    outFile = msg.outFile;
    for (const d of msg.devices) workers.push(device(msg.url, d, msg.window, msg.baseTs));
    tick = setInterval(() => {
      if (process.connected) process.send?.({ kind: 'tick', acked, connected: clients.filter((c) => c.connected).length });
    }, 1_000);
    process.send?.({ kind: 'ready' });
    return;
  }
  stopping = true;
  if (tick) clearInterval(tick);
  void Promise.all(workers).then(() => {
    writeFileSync(outFile, JSON.stringify(Object.fromEntries(ackedTs)));
    for (const c of clients) c.end(true);
    process.send?.({ kind: 'done' }, () => process.exit(0));
  });
});
