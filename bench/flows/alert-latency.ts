/**
 * bench/flows, part 3: point → platform-rule alert. D devices publish QoS 1 points (each hotter than its last) at a
 * combined rate of BENCH_ALERT_POINTS_PER_S, from a child process (support/hot-points-load.ts: the clients' CPU is
 * not the server's) and on schedule (a point every period whether or not the last was acknowledged); a running
 * platform rule `telemetry → condition value > 30 → true → alert` refreshes each device's one open platform alert with
 * the point (its `trigger`). A trigger on `alerts` NOTIFYs at commit, so "stored" is when the row with that value (or
 * a later one) is visible. The first BENCH_ALERT_WARMUP_S seconds (3) of the load are not measured: the rule opens the
 * devices' alerts then, and each opening notifies (a burst of 500 alerts opened and notified in one second is its own
 * event, not the steady cost of a running rule). Printed: the rate offered and the rate achieved (points acknowledged
 * per second, end of the warm-up to the last PUBACK); baseline in the same run: publish → PUBACK (the point
 * committed). Target: p99 ≤ 1 s with 5,000 points/s achieved.
 */
import { DEFAULT_ENGINE_CONFIG, type TFlowGraphInput, ZFlowGraph } from '@tessera/contracts';
import pg from 'pg';
import { platformEngineConfigs, platformRules, type TRunningServer } from '@tessera/server';
import { buildDeviceProject } from '@tessera/server/testing';
import { percentile, worstSeconds } from '../overload/stats.js';
import { alertLatenciesOf, recordAlertSightings, startHotPointsLoad } from '../support/hot-points.js';

const at = { x: 0, y: 0 };
const WARMUP_S = Number(process.env.BENCH_ALERT_WARMUP_S ?? 3);

function alertFlow(projectId: number): TFlowGraphInput {
  return {
    nodes: [
      {
        id: 'n1',
        type: 'start',
        position: at,
        data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [projectId] }, keys: ['temperature'] } },
      },
      { id: 'n2', type: 'condition', position: at, data: { expression: 'value > 30' } },
      { id: 'n3', type: 'conditionResult', position: at, data: { result: true } },
      { id: 'n4', type: 'alert', position: at, data: { level: 'alert', message: '{{tangramId}} hot' } },
    ],
    edges: [
      { id: 'a', source: 'n1', target: 'n2' },
      { id: 'b', source: 'n2', target: 'n3' },
      { id: 'c', source: 'n3', target: 'n4' },
    ],
  };
}

/** Measures and prints point → platform-rule alert latency on `server` (its database a scratch PostgreSQL). */
export async function measureAlertLatency(server: TRunningServer, pointsPerS: number, seconds: number, deviceCount: number): Promise<void> {
  const pool = server.ctx.database.pool as pg.Pool;
  const listener = new pg.Client({ connectionString: pool.options.connectionString });
  try {
    await pool.query(`create function bench_platform_alert_notify() returns trigger language plpgsql as $$
      begin if new.rule_kind = 'platform' then perform pg_notify('bench_platform_alerts', new.device_id || ':' || new.trigger_value); end if;
      return new; end $$`);
    await pool.query(
      'create trigger bench_platform_alert_rows after insert or update on alerts for each row execute function bench_platform_alert_notify()',
    );
    const db = server.ctx.db;
    const { tenantId, projectId, devices } = await buildDeviceProject(db, { count: deviceCount });
    await db.insert(platformEngineConfigs).values({
      tenantId,
      config: { ...DEFAULT_ENGINE_CONFIG, runs_per_second: 100_000, queue_max: 100_000 },
    });
    const graph = ZFlowGraph.parse(alertFlow(projectId));
    await db
      .insert(platformRules)
      .values({ tenantId, name: 'hot line', status: 'running', draft: graph, applied: graph, version: 1, triggerKind: 'telemetry' });
    server.flows.tenantChanged(tenantId);

    await listener.connect();
    const sightings = await recordAlertSightings(listener, 'bench_platform_alerts');
    const periodMs = (deviceCount * 1000) / pointsPerS;
    const load = await startHotPointsLoad({
      mqttPort: server.mqttPort as number,
      devices: devices.map((d) => ({ id: d.id, tangramId: d.tangramId, secret: d.secret })),
      periodMs,
      warmupS: WARMUP_S,
      seconds,
    });
    console.log(
      `flows: point → platform-rule alert: ${deviceCount} devices × 1 QoS 1 point every ${periodMs.toFixed(0)} ms (${pointsPerS} points/s offered) for ${WARMUP_S} s not measured, then ${seconds} s measured, from a child process …`,
    );
    const { sent, acked, ackLatencies, ackSentAtS, sentAt, seconds: ackedS } = await load.run();
    await server.flows.idle();
    await new Promise((r) => setTimeout(r, 1_000));
    const alertLatencies = alertLatenciesOf(sightings, sentAt);
    const achieved = acked / ackedS;
    const f = (x: number) => `${x.toFixed(1)} ms`;
    const p99 = percentile(alertLatencies, 99);
    const met = p99 <= 1000 && alertLatencies.length === sent && achieved >= pointsPerS * 0.98;
    console.log(
      `flows: ${sent} points sent, ${acked} acknowledged in ${ackedS.toFixed(1)} s: ${pointsPerS} points/s offered, ${achieved.toFixed(0)} points/s achieved; ${alertLatencies.length} seen in a stored platform alert; engine runs ${server.flows.counters.runs}, failed ${server.flows.counters.errors}, refused ${server.flows.counters.refused}`,
    );
    console.log(
      `flows: publish → platform alert stored p50 ${f(percentile(alertLatencies, 50))}, p99 ${f(p99)} (≤ 1,000 ms at the rate offered: ${met ? 'met' : 'NOT met'}) — baseline publish → PUBACK (point committed) p50 ${f(percentile(ackLatencies, 50))}, p99 ${f(percentile(ackLatencies, 99))}`,
    );
    const worst = worstSeconds(ackLatencies, ackSentAtS, Number(process.env.BENCH_WORST_SECONDS ?? 3)).map(
      ([s, p99, n]) => `${s} s: ${f(p99)} of ${n}`,
    );
    console.log(`flows: publish → PUBACK p99 of the worst seconds of the run: ${worst.join('; ')}`);
  } finally {
    await listener.end().catch(() => undefined);
  }
}
