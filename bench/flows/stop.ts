/**
 * bench/flows, stopping under load (docs/deployment.md "Stopping"): 100 devices publish 10,000 points/s of
 * `temperature` while the demo's "Line overheating" platform rule reads it, then the server stops; how long the stop
 * takes, whether every step finished, and whether an acknowledged point was lost. Baseline in the same run: the same
 * load while the rule reads another key (nothing to run, nothing queued). Target: within SHUTDOWN_TIMEOUT_MS (8 s),
 * every step finished, nothing lost.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx flows/stop.ts   (from bench/)
 *   env: BENCH_STOP_LOAD_S (3): seconds of load before the stop
 */
import { insertRunningDemoRule, startDeviceLoad } from '@tessera/server/testing';
import { startBenchServer } from '../support/bench-server.js';

const LOAD_S = Number(process.env.BENCH_STOP_LOAD_S ?? 3);
const DEVICES = 100;

/** Loads a fresh server for LOAD_S seconds with the demo rule reading `ruleKey`, stops it, and prints the stop. */
async function stopUnderLoad(ruleKey: string): Promise<void> {
  const bench = await startBenchServer({ devices: DEVICES });
  const { server, project, database } = bench;
  try {
    await insertRunningDemoRule(database.db, project, ruleKey);
    // 100 devices × 10 messages/s × 10 points: 10,000 points/s of `temperature`.
    const load = await startDeviceLoad({
      mqttUrl: `mqtt://127.0.0.1:${server.mqttPort}`,
      devices: project.devices,
      periodMs: 100,
      pointsPerMessage: 10,
    });
    const ackedBefore = load.acked();
    await new Promise((r) => setTimeout(r, LOAD_S * 1000));
    const acked = load.acked() - ackedBefore;
    const t0 = performance.now();
    const outcome = await server.close();
    const stopMs = performance.now() - t0;
    await load.stop(0);
    const lost = await load.lostPoints(database.db);
    console.log(
      `flows stop, rule on ${ruleKey}: ${(acked / LOAD_S).toFixed(0)} points/s acknowledged; stop ${stopMs.toFixed(0)} ms, ` +
        `late steps [${outcome.late.join(', ')}], runs ${server.flows.counters.runs}, skipped ${server.flows.counters.skipped}, ` +
        `acknowledged points lost ${lost}`,
    );
  } finally {
    await database.close();
  }
}

await stopUnderLoad('temperature');
await stopUnderLoad('humidity');
process.exit(0);
