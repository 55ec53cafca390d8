/**
 * What one webhook request costs before the platform does anything with it: the floor under the ChirpStack webhook's
 * figure in bench/connectivity (docs/connectivity.md "What HTTP itself costs"). A server that reads each POST's body
 * and answers `200 {"stored":1}` — Node's own `http` server, and a Fastify app with one route — takes ChirpStack-shaped
 * uplinks from the same load as run.ts's webhook way (undici's keep-alive Pool through `dispatch()`, 200 requests
 * unanswered over 200 sockets), in a forked process. No database, no thread, no ingest: what remains is HTTP on both
 * ends. Printed per server: requests/s, and the server's and the load's CPU per request, beside an MQTT QoS 1 publish
 * answered by an Aedes broker at once (PUBACK on receipt, no ingest) from MQTT.js clients — the same floor for the
 * native way — measured in the same run, interleaved.
 *
 *   npm run bench:http-floor -w @tessera/bench
 *   env: BENCH_ROUNDS (3), BENCH_SECONDS (5) measured after 1 s of warm-up, BENCH_IN_FLIGHT (200)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Aedes } from 'aedes';
import Fastify from 'fastify';
import mqtt from 'mqtt';
import { Pool } from 'undici';
import { postDispatch } from './http-dispatch.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 200);
const WARMUP_S = 1;
/** MQTT connections of the MQTT floor (2 publishes unacknowledged on each, as run.ts's native way). */
const MQTT_CONNECTIONS = Math.max(1, Math.floor(IN_FLIGHT / 2));

/** A ChirpStack v4 `up` event as the load posts it (run.ts's webhook way sends the same shape). */
const UPLINK = JSON.stringify({
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2026-11-28T12:00:00.000Z',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'ChirpStack',
    applicationId: 'a9c7e1a6-0f2b-4e8e-9a1c-1f2c3d4e5f60',
    applicationName: 'field sensors',
    deviceProfileId: 'e9f7b8a6-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    deviceProfileName: 'temperature',
    deviceName: 'sensor 0001',
    devEui: '70b3d57ed0000001',
    tags: {},
  },
  devAddr: '01f2a3b4',
  adr: true,
  dr: 5,
  fCnt: 42,
  fPort: 1,
  confirmed: false,
  data: 'AOE=',
  object: { temperature: 21.5 },
  rxInfo: [{ gatewayId: '0016c001f153a14c', uplinkId: 4217, rssi: -57, snr: 10.2, context: 'EFwMtA==' }],
  txInfo: { frequency: 868100000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
});
const ANSWER = '{"stored":1}';

type TFloorWay = 'mqtt' | 'node-http' | 'fastify';
type TLoadCommand = { way: TFloorWay; port: number; seconds: number };
type TLoadReport = { acked: number; cpuUs: number };

/** The load (forked): sends for `seconds`, `IN_FLIGHT` unanswered, and reports what was answered and its CPU. */
async function runLoad(cmd: TLoadCommand): Promise<TLoadReport> {
  let acked = 0;
  let running = true;
  let send: () => Promise<void>;
  let close: () => Promise<void>;
  if (cmd.way === 'mqtt') {
    const clients = await Promise.all(
      Array.from({ length: MQTT_CONNECTIONS }, () => mqtt.connectAsync(`mqtt://127.0.0.1:${cmd.port}`, { reconnectPeriod: 0 })),
    );
    let next = 0;
    send = () => {
      const client = clients[next++ % clients.length] as mqtt.MqttClient;
      return client.publishAsync('devices/T/telemetry', '{"key":"temperature","ts":1,"vs":[21.5]}', { qos: 1 }).then(() => undefined);
    };
    close = async () => {
      await Promise.all(clients.map((c) => c.endAsync(true)));
    };
  } else {
    const pool = new Pool(`http://127.0.0.1:${cmd.port}`, { connections: IN_FLIGHT, pipelining: 1 });
    send = () => postDispatch(pool, '/lorawan/v1/1/chirpstack?event=up', UPLINK, {});
    close = () => pool.close();
  }
  const loop = async () => {
    while (running) {
      await send();
      acked += 1;
    }
  };
  const loops = Array.from({ length: IN_FLIGHT }, loop);
  await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
  const ackedBefore = acked;
  const cpuBefore = process.cpuUsage();
  await new Promise((r) => setTimeout(r, cmd.seconds * 1000));
  const cpu = process.cpuUsage(cpuBefore);
  const report = { acked: acked - ackedBefore, cpuUs: cpu.user + cpu.system };
  running = false;
  await Promise.all(loops);
  await close();
  return report;
}

/** A running server of one way and how to close it. */
interface TFloorServer {
  port: number;
  close(): Promise<void>;
}

/** Node's own HTTP server: reads the body, answers 200. */
async function startNodeHttp(): Promise<TFloorServer> {
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': ANSWER.length });
      res.end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Fastify app with the webhook's path, parameters and JSON body (Fastify's defaults): answers 200. */
async function startFastify(): Promise<TFloorServer> {
  const app = Fastify({ logger: false });
  app.post('/lorawan/v1/:integrationId/:networkServer', async () => ({ stored: 1 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

/** An Aedes broker that answers each QoS 1 publish at once (no hooks: PUBACK on receipt). */
async function startAedes(): Promise<TFloorServer> {
  const broker = await Aedes.createBroker();
  const server: NetServer = createNetServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const STARTERS: Record<TFloorWay, () => Promise<TFloorServer>> = { mqtt: startAedes, 'node-http': startNodeHttp, fastify: startFastify };

/** Sends `cmd` to the forked load and waits for its report. */
function ask(child: ChildProcess, cmd: TLoadCommand): Promise<TLoadReport> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as TLoadReport));
    child.send(cmd);
  });
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['load'], { execArgv: process.execArgv });
  const ways: TFloorWay[] = ['mqtt', 'node-http', 'fastify'];
  const results = new Map<TFloorWay, { rate: number; serverUs: number; loadUs: number }[]>(ways.map((w) => [w, []]));
  console.log(
    `http floor: ${ROUNDS} interleaved rounds of ${WARMUP_S} s warm-up + ${SECONDS} s per way; ${IN_FLIGHT} unanswered ` +
      `(HTTP: ${IN_FLIGHT} keep-alive sockets, a ${UPLINK.length}-byte ChirpStack uplink each; MQTT: ${MQTT_CONNECTIONS} ` +
      `connections, QoS 1); load average at the start ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const way of ways) {
        const server = await STARTERS[way]();
        const cpuBefore = process.cpuUsage();
        const startedAt = performance.now();
        const report = await ask(child, { way, port: server.port, seconds: SECONDS });
        // The server's CPU over the whole phase (warm-up included), spread over what was answered in it: the load counts
        // only the measured window, so the server's figure is taken over its share of the phase's time.
        const cpu = process.cpuUsage(cpuBefore);
        const phaseS = (performance.now() - startedAt) / 1000;
        const serverUs = ((cpu.user + cpu.system) * (SECONDS / phaseS)) / report.acked;
        const row = { rate: report.acked / SECONDS, serverUs, loadUs: report.cpuUs / report.acked };
        results.get(way)?.push(row);
        console.log(
          `  round ${round} ${way}: ${Math.round(row.rate).toLocaleString('en')} req/s; CPU per request: server ` +
            `${row.serverUs.toFixed(1)} µs, load ${row.loadUs.toFixed(1)} µs`,
        );
        await server.close();
      }
    }
  } finally {
    child.kill();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;
  console.log('medians                 req/s  server µs/req  load µs/req  both µs/req');
  for (const way of ways) {
    const rows = results.get(way) ?? [];
    const s = median(rows.map((r) => r.serverUs));
    const l = median(rows.map((r) => r.loadUs));
    console.log(
      `${way.padEnd(18)} ${Math.round(median(rows.map((r) => r.rate)))
        .toLocaleString('en')
        .padStart(10)}  ${s.toFixed(1).padStart(13)}  ${l.toFixed(1).padStart(11)}  ${(s + l).toFixed(1).padStart(11)}`,
    );
  }
}

if (process.argv[2] === 'load') {
  process.on('message', (cmd: TLoadCommand) => {
    runLoad(cmd).then(
      (report) => process.send?.(report),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
