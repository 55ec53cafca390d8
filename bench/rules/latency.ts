/**
 * bench/rules, part 2: p99 from a point published over MQTT to its alert row stored in PostgreSQL. D devices publish
 * one QoS 1 point at a time, each hotter than the last, under a level-trigger simple rule `temperature > 30`; every
 * evaluation updates the device's alert (count, trigger value). A trigger on `alerts` NOTIFYs at commit, so "stored"
 * is when the row is visible. A point superseded before evaluation (the engine keeps the newest per key) is stored
 * when a row with its value or a later one is. Baseline in the same run: publish → PUBACK (the point committed).
 */
import { rulePaths } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, startServer } from '@tessera/server';
import { buildDeviceProject, openScratchPostgres } from '@tessera/server/testing';
import { collectAlertLatencies, publishHotPoints } from '../support/hot-points.js';
import { connectDevices } from '../support/devices.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const PERIOD_MS = Number(process.env.BENCH_PERIOD_MS ?? 100);

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Measures and prints; answers the p99 in ms. */
export async function measureLatency(): Promise<number> {
  const database = await openScratchPostgres(ADMIN_URL, 10, 'tessera_bench');
  const config = { ...loadConfig({ ...process.env, DEMO: '0' }), port: 0, mqttPort: 0, host: '127.0.0.1', webDist: '/nonexistent' };
  const server = await startServer(config, { database, log: pino({ level: 'warn' }) });
  const clients: MqttClient[] = [];
  const listener = new pg.Client({ connectionString: database.pool?.options.connectionString });
  try {
    const pool = database.pool as pg.Pool;
    await pool.query(`create function bench_alert_notify() returns trigger language plpgsql as $$
      begin perform pg_notify('bench_alerts', new.device_id || ':' || new.trigger_value); return new; end $$`);
    await pool.query('create trigger bench_alert_rows after insert or update on alerts for each row execute function bench_alert_notify()');
    const { devices, projectId } = await buildDeviceProject(database.db, { count: DEVICES });
    // The rule goes in as the console would: through the API (its inject path), as the project's vendor tenant.
    const rule = { name: 'Hot', key: 'temperature', op: 'gt', threshold: 30, level: 'alert', message: 'hot' };
    const [tenant] = (await pool.query('select tenant_id from projects where id = $1', [projectId])).rows;
    const token = await server.ctx.tokens.sign({
      sub: '0',
      tid: tenant.tenant_id,
      email: 'bench@example.com',
      level: 'vendor',
      fea: ['3'],
    });
    const res = await server.app.inject({
      method: 'POST',
      url: rulePaths.simples(projectId),
      headers: { authorization: `Bearer ${token}` },
      payload: rule,
    });
    if (res.statusCode !== 201) throw new Error(`rule not created: ${res.statusCode} ${res.body}`);

    const sentAt = new Map<number, number[]>(); // device id → publish time of each point
    await listener.connect();
    const alertLatencies = await collectAlertLatencies(listener, 'bench_alerts', sentAt);
    clients.push(...(await connectDevices(server.mqttPort as number, devices)));
    console.log(`point → alert row: ${DEVICES} devices × 1 QoS 1 point every ${PERIOD_MS} ms for ${SECONDS} s, PostgreSQL`);
    const { sent, ackLatencies } = await publishHotPoints(clients, devices, PERIOD_MS, SECONDS, sentAt);
    await server.rules.idle();
    await new Promise((r) => setTimeout(r, 500));
    const a = alertLatencies.sort((x, y) => x - y);
    const k = ackLatencies.sort((x, y) => x - y);
    const f = (x: number) => `${x.toFixed(1)} ms`;
    console.log(
      `  points ${sent}, with a stored alert row ${a.length}; engine evaluations ${server.rules.counters.evaluations}, coalesced ${server.rules.counters.coalesced}`,
    );
    console.log(
      `  publish → alert row stored: p50 ${f(percentile(a, 50))}, p99 ${f(percentile(a, 99))}, max ${f(a[a.length - 1] ?? Number.NaN)} (target p99 ≤ 1000 ms)`,
    );
    console.log(`  publish → PUBACK (point committed, baseline): p50 ${f(percentile(k, 50))}, p99 ${f(percentile(k, 99))}`);
    if (a.length < sent) console.log(`  ${sent - a.length} points have no alert row yet`);
    return percentile(a, 99);
  } finally {
    await listener.end().catch(() => undefined);
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await server.close();
    await database.close();
  }
}
