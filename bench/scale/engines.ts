/**
 * bench:engines — the candidate engines for scale-out, measured by the same load: 100 MQTT devices in
 * ENGINES_PUBLISHERS processes publish 1-point QoS 1 messages, 10 unacknowledged each, for ENGINES_SECONDS (default
 * 20); a consumer standing for a replica commits batches (≤ 1,000 or 20 ms) and acknowledges after the commit.
 * Three phases per engine, each on a fresh engine: steady; the engine's kill -9 half-way and a restart on the same
 * data directory; one of two consumers killed half-way. Lost = acknowledged to the device, never committed.
 * The baseline, measured in the same run, is Mosquitto's default config with today's consumer (the setup that
 * loses acknowledged points today). ENGINES_ONLY=key,key limits the run (keys: see ENGINES below).
 */
import type { TEngine } from './engines/engine.js';
import { mosquittoEngine } from './engines/mosquitto.js';
import { natsEngine } from './engines/nats.js';
import { type TFault, type TLoad, type TPhaseResult, runPhase } from './engines/phase.js';
import { rabbitmqEngine } from './engines/rabbitmq.js';

/** Every engine of the comparison, by key; the first is the baseline. */
const ENGINES: Record<string, () => Promise<TEngine>> = {
  'mosquitto-default': () => mosquittoEngine(false),
  mosquitto: () => mosquittoEngine(true),
  'rabbitmq-classic': () => rabbitmqEngine('classic'),
  'rabbitmq-quorum': () => rabbitmqEngine('quorum'),
  nats: () => natsEngine(),
};
const FAULTS: TFault[] = ['none', 'engine-kill', 'consumer-kill'];

const load: TLoad = {
  seconds: Number(process.env.ENGINES_SECONDS ?? 20),
  publishers: Number(process.env.ENGINES_PUBLISHERS ?? 2),
  devices: 100,
  window: 10,
};
const only = process.env.ENGINES_ONLY?.split(',');
const keys = Object.keys(ENGINES).filter((k) => !only || only.includes(k));

/** "lost of acknowledged (share)"; a mark when the drain hit its limit (so some of the lost were still queued). */
function lostCell(r: TPhaseResult | string): string {
  if (typeof r === 'string') return r;
  const share = r.acked === 0 ? 0 : (r.lost / r.acked) * 100;
  return `${r.lost.toLocaleString('en')} of ${r.acked.toLocaleString('en')} (${share.toFixed(share > 0 && share < 0.1 ? 3 : 1)} %)${r.drained ? '' : ' †'}`;
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The three phases of engine `key`, each on a fresh engine; a phase that failed is its error's message. */
async function measure(key: string): Promise<{ name: string; r: Record<TFault, TPhaseResult | string> }> {
  const r = {} as Record<TFault, TPhaseResult | string>;
  let name = key;
  for (const fault of FAULTS) {
    const engine = await ENGINES[key]();
    name = engine.name;
    try {
      const p = await runPhase(engine, fault, load);
      r[fault] = p;
      console.log(
        `${key} ${fault}: acked ${p.acked} (${p.ackedPerS.toFixed(0)}/s), committed ${p.consumedPerS.toFixed(0)}/s in window, lost ${p.lost}, duplicates ${p.duplicates}, unsettled ${p.unsettled}, drain ${p.drainS.toFixed(1)} s${p.drained ? '' : ' (limit)'}, engine CPU ${p.engineCpuPct.toFixed(0)} %`,
      );
    } catch (err) {
      r[fault] = `failed: ${(err as Error).message}`;
      console.log(`${key} ${fault}: ${r[fault]}`);
    } finally {
      await engine.dispose();
    }
  }
  return { name, r };
}

async function main(): Promise<void> {
  console.log(`engines: ${load.devices} devices in ${load.publishers} processes, window ${load.window}, ${load.seconds} s per phase`);
  const results = new Map<string, { name: string; r: Record<TFault, TPhaseResult | string> }>();
  for (const key of keys) results.set(key, await measure(key));
  console.log('');
  console.log(
    row([
      'engine',
      'acknowledged/s',
      'consumed/s',
      'lost, steady',
      'lost after engine kill -9',
      'lost after consumer kill',
      'engine CPU (% of a core)',
    ]),
  );
  console.log(row(Array(7).fill('---')));
  for (const { name, r } of results.values()) {
    const steady = typeof r.none === 'string' ? undefined : r.none;
    console.log(
      row([
        name,
        steady?.ackedPerS.toFixed(0) ?? '–',
        steady?.consumedPerS.toFixed(0) ?? '–',
        lostCell(r.none),
        lostCell(r['engine-kill']),
        lostCell(r['consumer-kill']),
        steady?.engineCpuPct.toFixed(0) ?? '–',
      ]),
    );
  }
  console.log('† the drain stopped at its 180 s limit while commits went on: some of these were still queued, not lost.');
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
