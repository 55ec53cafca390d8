/**
 * bench/floods: what one address can do to everyone else, beside the same figures with no attack, in one run
 * against PostgreSQL (a scratch database). This process hosts the server; the attacker is a child process
 * (attacker.ts) on 127.0.0.1; the honest device and browser are on 127.0.0.2. Loopback only, bounded in time.
 *
 *   1. MQTT half-open flood: --mqtt-sockets (1,000) connections that never log in, re-opened as they close; figure:
 *      honest device logins out of 20, and their time to CONNACK.
 *   2. Slow HTTP: --http-sockets (18,000; the attacker's own open-file limit bounds it) connections sending a header
 *      line every 10 s, re-opened as they close; figures: /healthz and POST login from 127.0.0.2 (time, answers).
 *   3. Client-id takeover: a device of another tenant logs in again and again with the honest device's client id
 *      while the honest device publishes 4 points/s; figures: points stored of those sent, takeovers.
 *   4. A backlog at login: 50 × (CONNECT + a 48 KB QoS 1 publish in one TCP write, another right after CONNACK);
 *      figure: PUBACKs of 100.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:floods -w @tessera/bench -- --seconds 20
 *   flags: --seconds 20 (per attack phase), --mqtt-sockets 1000, --http-sockets 18000
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { deviceClientId, paths, topics } from '@tessera/contracts';
import { buildDeviceProject, timedDeviceLogin, timedRequest } from '@tessera/server/testing';
import mqtt from 'mqtt';
import { fmt, maxOf, percentile, printTable } from '../overload/stats.js';
import { startBenchServer } from '../support/bench-server.js';
import type { TAttackOrder, TAttackReport } from './attacker.js';
import { loginBacklog } from './login-backlog.js';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    'mqtt-sockets': { type: 'string', default: '1000' },
    'http-sockets': { type: 'string', default: '18000' },
  },
});
const SECONDS = Math.min(120, Math.max(5, Number(flags.seconds)));
const MQTT_SOCKETS = Math.min(5_000, Number(flags['mqtt-sockets']));
const HTTP_SOCKETS = Math.min(19_000, Number(flags['http-sockets']));
const ATTACKER = '127.0.0.1';
const HONEST = '127.0.0.2';
const HOST = '127.0.0.1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `measure` with the attacker holding `order`'s sockets (after a second to build up); answers both results. */
async function underAttack<T>(order: TAttackOrder, measure: () => Promise<T>): Promise<{ result: T; attack: TAttackReport }> {
  const child = fork(new URL('./attacker.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'] });
  child.send(order);
  await sleep(2_000);
  const result = await measure();
  const attack = await new Promise<TAttackReport>((resolve) => {
    child.once('message', (m: TAttackReport) => resolve(m));
    child.send('stop');
  });
  return { result, attack };
}

/** 20 logins of `device` from 127.0.0.2 spread over --seconds: logged-in count and CONNACK times. */
async function deviceLogins(target: { host: string; port: number }, device: { tangramId: string; secret: string }) {
  const times: number[] = [];
  let ok = 0;
  for (let i = 0; i < 20; i++) {
    const ms = await timedDeviceLogin(target, device, HONEST, 5_000);
    if (ms !== null) {
      ok += 1;
      times.push(ms);
    }
    await sleep((SECONDS * 1000) / 20);
  }
  return { ok, times };
}

/** /healthz and a login attempt from 127.0.0.2 every half second for --seconds. */
async function httpProbes(target: { host: string; port: number }) {
  const health: number[] = [];
  const login: number[] = [];
  let unanswered = 0;
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    const h = await timedRequest(target, HONEST, 'GET', '/healthz');
    const l = await timedRequest(target, HONEST, 'POST', paths.login, { email: 'nobody@example.com', password: 'wrong password 1' });
    if (h.status !== 200) unanswered += 1;
    if (l.status === 0 || l.status >= 500) unanswered += 1;
    health.push(h.ms);
    login.push(l.ms);
    await sleep(500);
  }
  return { health, login, unanswered };
}

async function main(): Promise<void> {
  const bench = await startBenchServer({ devices: 1, httpMaxConnectionsPerIp: 256 });
  const { server } = bench;
  const mqttTarget = { host: HOST, port: server.mqttPort as number };
  const httpTarget = { host: HOST, port: server.httpPort };
  const [device] = bench.project.devices;
  const [intruder] = (await buildDeviceProject(bench.database.db, { count: 1 })).devices;
  const [backlogDevice] = (await buildDeviceProject(bench.database.db, { count: 1 })).devices;
  const rows: string[][] = [];
  try {
    // 1. MQTT half-open flood
    const quietLogins = await deviceLogins(mqttTarget, device);
    const mqttFlood = await underAttack(
      { kind: 'mqtt-half-open', host: HOST, port: mqttTarget.port, count: MQTT_SOCKETS, localAddress: ATTACKER, dripMs: 0 },
      () => deviceLogins(mqttTarget, device),
    );
    rows.push(['device logins of 20 (another address)', String(quietLogins.ok), String(mqttFlood.result.ok)]);
    rows.push(['  CONNACK p50 ms', fmt(percentile(quietLogins.times, 50)), fmt(percentile(mqttFlood.result.times, 50))]);
    rows.push(['  CONNACK max ms', fmt(maxOf(quietLogins.times)), fmt(maxOf(mqttFlood.result.times))]);
    rows.push(['  attacker sockets closed by the server', '–', fmt(mqttFlood.attack.closedByServer)]);

    // 2. slow HTTP
    const quietHttp = await httpProbes(httpTarget);
    const httpFlood = await underAttack(
      { kind: 'http-slow', host: HOST, port: httpTarget.port, count: HTTP_SOCKETS, localAddress: ATTACKER, dripMs: 10_000 },
      () => httpProbes(httpTarget),
    );
    rows.push(['/healthz p50 ms (another address)', fmt(percentile(quietHttp.health, 50)), fmt(percentile(httpFlood.result.health, 50))]);
    rows.push(['/healthz max ms', fmt(maxOf(quietHttp.health)), fmt(maxOf(httpFlood.result.health))]);
    rows.push(['login max ms', fmt(maxOf(quietHttp.login)), fmt(maxOf(httpFlood.result.login))]);
    rows.push(['HTTP probes unanswered or 5xx', String(quietHttp.unanswered), String(httpFlood.result.unanswered)]);
    rows.push(['  attacker sockets held at the end', '–', fmt(httpFlood.attack.openAtStop)]);

    // 3. client-id takeover
    const takeover = await clientIdTakeover(mqttTarget, device, intruder, bench.database.pool);
    rows.push(['points stored of sent (client-id takeover)', '–', `${takeover.stored} of ${takeover.sent}`]);
    rows.push(['  honest device disconnected', '–', String(takeover.disconnects)]);
    rows.push(['  intruder logins refused', '–', String(takeover.refused)]);

    // 4. backlog at login
    const backlog = await loginBacklog(mqttTarget, backlogDevice, 50);
    const storedBacklog = await bench.database.pool?.query('select count(*) as n from telemetry where device_id = $1', [backlogDevice.id]);
    rows.push(['PUBACKs of 100 (48 KB at login)', '–', String(backlog.acked)]);
    rows.push(['  points stored of 40,000', '–', fmt(Number(storedBacklog?.rows[0].n ?? 0))]);

    console.log(`\nfloods bench: --seconds ${SECONDS} --mqtt-sockets ${MQTT_SOCKETS} --http-sockets ${HTTP_SOCKETS}`);
    printTable(['figure', 'no attack', 'under attack'], rows);
    console.log(
      `floods: device logins ${mqttFlood.result.ok}/20, /healthz max ${fmt(maxOf(httpFlood.result.health))} ms, ` +
        `takeover stored ${takeover.stored}/${takeover.sent}, backlog PUBACKs ${backlog.acked}/100`,
    );
  } finally {
    await bench.stop();
  }
}

/**
 * The honest device publishes 4 points/s for --seconds while the intruder (another tenant's device, its own
 * credentials) logs in with the honest device's client id every 500 ms.
 */
async function clientIdTakeover(
  target: { host: string; port: number },
  honest: { tangramId: string; secret: string; id: number },
  intruder: { tangramId: string; secret: string },
  pool: { query: (sql: string, params: unknown[]) => Promise<{ rows: { n: string }[] }> } | null | undefined,
) {
  const url = `mqtt://${target.host}:${target.port}`;
  const client = await mqtt.connectAsync(url, {
    username: honest.tangramId,
    password: honest.secret,
    clientId: deviceClientId(honest.tangramId),
    reconnectPeriod: 200,
  });
  let disconnects = 0;
  client.on('close', () => {
    disconnects += 1;
  });
  let refused = 0;
  let sent = 0;
  const t0 = Date.now() - 3_600_000;
  const until = Date.now() + SECONDS * 1000;
  const attack = setInterval(() => {
    mqtt
      .connectAsync(url, {
        username: intruder.tangramId,
        password: intruder.secret,
        clientId: deviceClientId(honest.tangramId),
        reconnectPeriod: 0,
      })
      .then(
        (c) => c.end(true),
        () => {
          refused += 1;
        },
      );
  }, 500);
  while (Date.now() < until) {
    const ts = t0 + sent * 250;
    sent += 1;
    client.publish(topics.telemetry(honest.tangramId), JSON.stringify({ key: 'temperature', ts, vs: [20] }), { qos: 1 });
    await sleep(250);
  }
  clearInterval(attack);
  await sleep(2_000);
  client.removeAllListeners('close');
  await client.endAsync();
  const r = await pool?.query('select count(*) as n from telemetry where device_id = $1 and ts >= $2', [honest.id, t0]);
  return { sent, stored: Number(r?.rows[0].n ?? 0), disconnects, refused };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
