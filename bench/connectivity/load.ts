/**
 * The load of bench/connectivity/run.ts, in its own process (forked by it, so its CPU is not the server's): one
 * 1-point `temperature` message at a time through each way into Tessera, acknowledged once committed —
 * native MQTT (`devices/{id}/telemetry`, PUBACK), ThingsBoard MQTT (`v1/devices/me/telemetry` with the access token,
 * PUBACK), ThingsBoard gateway MQTT (`v1/gateway/telemetry` naming one device behind the gateway, PUBACK), ThingsBoard
 * HTTP (`POST /api/v1/{token}/telemetry`, 200), a ChirpStack v4 uplink webhook (`POST
 * /lorawan/v1/{id}/chirpstack?event=up`, 200) and ChirpStack's MQTT integration (an `up` event published with QoS 1
 * to the bench's Mosquitto, `application/{app}/device/{devEui}/event/up`, counted once the server has committed as
 * many uplinks as were published up to it: run.ts relays the server's count). Closed loop (`inFlight` messages always unacknowledged, spread over the
 * way's devices) or paced (`ratePerS` messages a second whatever is unacknowledged). Every point of a device gets a ts
 * of its own across all ways (a repeated one would be absorbed as a resend). Driven over the fork's IPC channel.
 */
import { Agent, request } from 'node:http';
import { topics } from '@tessera/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { Pool } from 'undici';
import { percentile } from '../overload/stats.js';
import { postDispatch } from './http-dispatch.js';

/** The ways a message comes in, in the order the bench runs them. */
/** The load's HTTP clients (run.ts BENCH_HTTP_CLIENT). */
export const HTTP_CLIENTS = ['node', 'undici', 'dispatch'] as const;
export type THttpClient = (typeof HTTP_CLIENTS)[number];

export const WAYS = ['native', 'thingsboard', 'gateway', 'http', 'lorawan', 'lorawan-mqtt'] as const;
export type TWay = (typeof WAYS)[number];

/** A device the load speaks for: `n` indexes its last-ts slot (shared by every way that names it). */
export interface TLoadDevice {
  n: number;
  tangramId: string;
  secret: string;
  token: string;
}

/** What the load process is given once. */
export interface TLoadSetup {
  mqttPort: number;
  httpPort: number;
  /** The port the LoRaWAN webhook is posted to: the device HTTP port (DEVICE_HTTP_PORT), or the main one. */
  lorawanPort: number;
  /** Devices publishing natively and, logged in by token, as ThingsBoard MQTT devices (one connection each per way). */
  mqttDevices: TLoadDevice[];
  /** The gateway's access token and the devices behind it (by name), or null when the server has no gateway API. */
  gateway: { token: string; devices: { n: number; name: string }[] } | null;
  /** Devices posting over HTTP (their tokens spread the per-token request limit). */
  httpDevices: TLoadDevice[];
  /** LoRaWAN integrations (webhook path and secret) and the DevEUIs of their project's devices. */
  lorawan: { path: string; secret: string; devices: { n: number; devEui: string }[] }[];
  /**
   * ChirpStack's MQTT integration broker (with the user ChirpStack publishes as) and the LoRaWAN integrations over MQTT
   * (their application ids and devices), or null.
   */
  lorawanMqtt: {
    url: string;
    username: string;
    password: string;
    apps: { applicationId: string; devices: { n: number; devEui: string }[] }[];
  } | null;
  /** How many devices there are in all (size of the last-ts table). */
  deviceCount: number;
  /** Messages kept unacknowledged in the closed loop, and HTTP sockets. */
  inFlight: number;
  /**
   * The HTTP client of every HTTP way (ThingsBoard HTTP, the LoRaWAN webhook): Node's `http.request` over a
   * keep-alive `Agent`, or undici's `Pool` (keep-alive, no pipelining) through `request()` or `dispatch()` — each
   * `inFlight` sockets.
   */
  httpClient: THttpClient;
}

export type TLoadCommand =
  | { kind: 'setup'; setup: TLoadSetup }
  /** LoRaWAN uplinks over MQTT the server committed so far (the broker acknowledges the publisher on receipt). */
  | { kind: 'committed'; count: number }
  | {
      kind: 'run';
      way: TWay;
      mode: 'closed' | 'paced';
      warmupS: number;
      seconds: number;
      ratePerS: number;
      /** Past `seconds`, the phase goes on until this many were acknowledged (the pass that warms every device). */
      minMessages?: number;
    }
  | { kind: 'end' };

/** A measured phase: acknowledged messages and publish → acknowledgement latency over the measured window. */
export interface TPhaseReport {
  kind: 'phase';
  way: TWay;
  mode: 'closed' | 'paced';
  /** Acknowledgements within the measured window. */
  acked: number;
  /** Messages acknowledged over the whole phase, warm-up included (to divide the server's CPU of the phase by). */
  ackedAll: number;
  elapsedS: number;
  /** Publish → acknowledgement of every message sent within the window, answered when it was (ms). */
  p50Ms: number;
  p99Ms: number;
  /** Messages not acknowledged (an HTTP status other than 200, a closed connection), by reason. */
  failures: Record<string, number>;
  /** The load process's CPU over the window, in cores. */
  loadCores: number;
}

export type TLoadReport = { kind: 'ready' } | TPhaseReport | { kind: 'ended' };

let setup: TLoadSetup;
let lastTs: number[] = [];
const mqttClients: Record<'native' | 'thingsboard' | 'gateway', MqttClient[]> = { native: [], thingsboard: [], gateway: [] };
let agent: Agent;
/** undici's keep-alive pools, by the server port they send to. */
const pools = new Map<number, Pool>();
function poolFor(port: number): Pool {
  let pool = pools.get(port);
  if (!pool) {
    pool = new Pool(`http://127.0.0.1:${port}`, { connections: setup.inFlight, pipelining: 1 });
    pools.set(port, pool);
  }
  return pool;
}
/** ChirpStack's connection to its broker. */
let chirpstack: MqttClient | null = null;
/** Uplinks over MQTT published so far and committed so far; waiters for the k-th commit, in publish order. */
let mqttPublished = 0;
let mqttCommitted = 0;
const mqttWaiters: { k: number; resolve: () => void }[] = [];

const send = (r: TLoadReport): void => {
  process.send?.(r);
};

/** A ts for device `n` later than any it was sent. */
function tsOf(n: number): number {
  const ts = Math.max(Date.now(), (lastTs[n] as number) + 1);
  lastTs[n] = ts;
  return ts;
}

const value = (seq: number): number => 20 + (seq % 10);

/** POSTs `body` to `path` on the server's `port`; resolves on 200, rejects with the status otherwise. */
function post(path: string, body: string, headers: Record<string, string>, port: number): Promise<void> {
  if (setup.httpClient === 'undici') return postUndici(poolFor(port), path, body, headers);
  if (setup.httpClient === 'dispatch') return postDispatch(poolFor(port), path, body, headers);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** {@link post} through undici's pool: the answer's body is read (and dropped) before the socket is reused. */
async function postUndici(pool: Pool, path: string, body: string, headers: Record<string, string>): Promise<void> {
  const res = await pool.request({ path, method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
}

/** Message `seq` of `way`: sends it and resolves on its acknowledgement. */
function sender(way: TWay): (seq: number) => Promise<void> {
  switch (way) {
    case 'native':
      return (seq) => {
        const i = seq % setup.mqttDevices.length;
        const d = setup.mqttDevices[i] as TLoadDevice;
        const payload = JSON.stringify({ key: 'temperature', ts: tsOf(d.n), vs: [value(seq)] });
        return mqttClients.native[i]
          ?.publishAsync(topics.telemetry(d.tangramId), payload, { qos: 1 })
          .then(() => undefined) as Promise<void>;
      };
    case 'thingsboard':
      return (seq) => {
        const i = seq % setup.mqttDevices.length;
        const d = setup.mqttDevices[i] as TLoadDevice;
        const payload = JSON.stringify({ ts: tsOf(d.n), values: { temperature: value(seq) } });
        return mqttClients.thingsboard[i]
          ?.publishAsync('v1/devices/me/telemetry', payload, { qos: 1 })
          .then(() => undefined) as Promise<void>;
      };
    case 'gateway':
      return (seq) => {
        const g = setup.gateway;
        if (!g) return Promise.reject(new Error('no gateway'));
        const d = g.devices[seq % g.devices.length] as { n: number; name: string };
        const payload = JSON.stringify({ [d.name]: [{ ts: tsOf(d.n), values: { temperature: value(seq) } }] });
        return mqttClients.gateway[0]?.publishAsync('v1/gateway/telemetry', payload, { qos: 1 }).then(() => undefined) as Promise<void>;
      };
    case 'http':
      return (seq) => {
        const d = setup.httpDevices[seq % setup.httpDevices.length] as TLoadDevice;
        return post(
          `/api/v1/${d.token}/telemetry`,
          JSON.stringify({ ts: tsOf(d.n), values: { temperature: value(seq) } }),
          {},
          setup.httpPort,
        );
      };
    case 'lorawan-mqtt':
      return (seq) => {
        const m = setup.lorawanMqtt;
        if (!m || !chirpstack) return Promise.reject(new Error('no LoRaWAN MQTT broker'));
        const app = m.apps[seq % m.apps.length] as NonNullable<TLoadSetup['lorawanMqtt']>['apps'][number];
        const d = app.devices[Math.floor(seq / m.apps.length) % app.devices.length] as { n: number; devEui: string };
        const eui = d.devEui.toLowerCase();
        const body = {
          deduplicationId: `bench-${seq}`,
          time: new Date(tsOf(d.n)).toISOString(),
          deviceInfo: { applicationId: app.applicationId, deviceName: 'bench', devEui: eui },
          fPort: 1,
          data: 'AOE=',
          object: { temperature: value(seq) },
        };
        // Acknowledged when the server has committed as many uplinks as were published up to this one (the broker's
        // PUBACK to the publisher only says it has the message).
        mqttPublished += 1;
        const k = mqttPublished;
        const committed = new Promise<void>((resolve) => mqttWaiters.push({ k, resolve }));
        return chirpstack
          .publishAsync(`application/${app.applicationId}/device/${eui}/event/up`, JSON.stringify(body), { qos: 1 })
          .then(() => committed);
      };
    case 'lorawan':
      return (seq) => {
        const integration = setup.lorawan[seq % setup.lorawan.length] as TLoadSetup['lorawan'][number];
        const d = integration.devices[Math.floor(seq / setup.lorawan.length) % integration.devices.length] as { n: number; devEui: string };
        // ChirpStack's JSON as JSON.stringify writes it for {deduplicationId, time, deviceInfo, fPort, data, object},
        // from a template (the load's CPU is the machine's too).
        const body =
          `{"deduplicationId":"bench-${seq}","time":"${new Date(tsOf(d.n)).toISOString()}",` +
          `"deviceInfo":{"deviceName":"bench","devEui":"${d.devEui.toLowerCase()}"},"fPort":1,"data":"AOE=",` +
          `"object":{"temperature":${value(seq)}}}`;
        return post(`${integration.path}?event=up`, body, { 'x-tessera-secret': integration.secret }, setup.lorawanPort);
      };
  }
}

/** Runs one phase of `way` and reports it. */
async function phase(cmd: Extract<TLoadCommand, { kind: 'run' }>): Promise<void> {
  // run.ts counts the server's commits of uplinks over MQTT from the start of each phase.
  mqttPublished = 0;
  mqttCommitted = 0;
  const sendOne = sender(cmd.way);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let counting = false;
  let running = true;
  let seq = 0;
  let ackedAll = 0;
  let acked = 0;
  const one = async (): Promise<void> => {
    const counted = counting;
    const t0 = performance.now();
    try {
      await sendOne(seq++);
      ackedAll += 1;
      // Throughput: acknowledgements within the window. Latency: every message sent within it, whenever answered.
      if (counting) acked += 1;
      if (counted) latencies.push(performance.now() - t0);
    } catch (err) {
      const reason = (err as Error).message.slice(0, 40);
      if (counted) failures[reason] = (failures[reason] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const pending: Promise<void>[] = [];
  let loops: Promise<void>[];
  if (cmd.mode === 'closed') {
    loops = Array.from({ length: setup.inFlight }, async () => {
      while (running) await one();
    });
  } else {
    loops = [
      (async () => {
        const started = performance.now();
        let sent = 0;
        while (running) {
          const due = Math.floor(((performance.now() - started) / 1000) * cmd.ratePerS);
          for (; sent < due; sent += 1) pending.push(one());
          if (pending.length > 10_000) await Promise.all(pending.splice(0));
          await new Promise((r) => setTimeout(r, 2));
        }
      })(),
    ];
  }
  await new Promise((r) => setTimeout(r, cmd.warmupS * 1000));
  counting = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, cmd.seconds * 1000));
  while (ackedAll < (cmd.minMessages ?? 0)) await new Promise((r) => setTimeout(r, 50));
  counting = false;
  const elapsedS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  running = false;
  await Promise.all(loops);
  await Promise.all(pending);
  send({
    kind: 'phase',
    way: cmd.way,
    mode: cmd.mode,
    acked,
    ackedAll,
    elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failures,
    loadCores: (cpu.user + cpu.system) / 1e6 / elapsedS,
  });
}

async function connectAll(s: TLoadSetup): Promise<void> {
  setup = s;
  lastTs = Array.from({ length: s.deviceCount }, () => 0);
  agent = new Agent({ keepAlive: true, maxSockets: s.inFlight });
  const url = `mqtt://127.0.0.1:${s.mqttPort}`;
  const opts = { reconnectPeriod: 0, connectTimeout: 30_000 };
  for (const d of s.mqttDevices) {
    mqttClients.native.push(await mqtt.connectAsync(url, { ...opts, username: d.tangramId, password: d.secret, clientId: d.tangramId }));
    mqttClients.thingsboard.push(await mqtt.connectAsync(url, { ...opts, username: d.token, clientId: `bench-tb-${d.n}` }));
  }
  if (s.lorawanMqtt) {
    chirpstack = await mqtt.connectAsync(s.lorawanMqtt.url, {
      ...opts,
      username: s.lorawanMqtt.username,
      password: s.lorawanMqtt.password,
      clientId: 'bench-chirpstack',
    });
  }
  if (s.gateway) mqttClients.gateway.push(await mqtt.connectAsync(url, { ...opts, username: s.gateway.token, clientId: 'bench-gateway' }));
}

process.on('message', (cmd: TLoadCommand) => {
  const run = async (): Promise<void> => {
    if (cmd.kind === 'committed') {
      mqttCommitted = cmd.count;
      while (mqttWaiters.length > 0 && (mqttWaiters[0] as { k: number }).k <= mqttCommitted) mqttWaiters.shift()?.resolve();
      return;
    }
    if (cmd.kind === 'setup') {
      await connectAll(cmd.setup);
      send({ kind: 'ready' });
    } else if (cmd.kind === 'run') await phase(cmd);
    else {
      const all = [...mqttClients.native, ...mqttClients.thingsboard, ...mqttClients.gateway, ...(chirpstack ? [chirpstack] : [])];
      await Promise.all(all.map((c) => c.endAsync(true)));
      agent.destroy();
      await Promise.all([...pools.values()].map((p) => p.close()));
      send({ kind: 'ended' });
      process.disconnect();
    }
  };
  run().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
