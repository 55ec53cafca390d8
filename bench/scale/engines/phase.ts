/**
 * One phase of the engine comparison on a fresh engine: consumers first (so the queue or subscription exists before
 * the first publish), then the publishers for `seconds`, an optional fault half-way (the engine's kill -9 and restart
 * on the same data directory, or one consumer's kill -9 while a second one keeps draining), then a drain, and the
 * count: acknowledged ids (PUBACK received) that no consumer ever committed are lost.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { TConsumerOrder, TConsumerReport } from './consumer.js';
import type { TEngine } from './engine.js';
import { cpuMsOfPid } from './process-tools.js';
import type { TPublisherOrder, TPublisherReport } from './publisher.js';

/** What happens half-way through the publishing. */
export type TFault = 'none' | 'engine-kill' | 'consumer-kill';

/** The load of a phase. */
export interface TLoad {
  seconds: number;
  publishers: number;
  devices: number;
  /** Unacknowledged messages each device may have in flight. */
  window: number;
}

/** What a phase measured. Rates are per second of the publishing window. */
export interface TPhaseResult {
  acked: number;
  ackedPerS: number;
  /** Distinct ids committed by the consumers while the devices published, per second. */
  consumedPerS: number;
  /** Acknowledged ids never committed, after the drain. */
  lost: number;
  /** Commits of an id already committed (redeliveries). */
  duplicates: number;
  /** Engine CPU over the publishing window, % of one core (NaN when the engine was restarted in it). */
  engineCpuPct: number;
  /** False when the drain stopped at its time limit while ids were still being committed. */
  drained: boolean;
  drainS: number;
  /** Publishes still without PUBACK when the publishers gave up waiting (neither acknowledged nor lost). */
  unsettled: number;
}

/** The drain ends when nothing was committed for this long (longer than JetStream's 5 s redelivery). */
const DRAIN_IDLE_MS = 8000;
const DRAIN_MAX_MS = 180_000;
const PUBLISHER_FILE = new URL('./publisher.ts', import.meta.url);
const CONSUMER_FILE = new URL('./consumer.ts', import.meta.url);

function forkChild(file: URL): ChildProcess {
  return fork(file, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Runs one phase on `engine` (started here, disposed by the caller).
 * @throws when a consumer or a publisher exits before reporting, or the engine does not come back.
 */
export async function runPhase(engine: TEngine, fault: TFault, load: TLoad): Promise<TPhaseResult> {
  await engine.start();
  const committed = new Set<number>();
  let duplicates = 0;
  let lastCommitAt = Date.now();
  const children: ChildProcess[] = [];
  try {
    const startConsumer = (replica: string) =>
      new Promise<ChildProcess>((resolve, reject) => {
        const child = forkChild(CONSUMER_FILE);
        children.push(child);
        child.on('message', (m: TConsumerReport) => {
          if (m.type === 'ready') resolve(child);
          else {
            for (const id of m.ids) {
              if (committed.has(id)) duplicates += 1;
              else committed.add(id);
            }
            lastCommitAt = Date.now();
          }
        });
        child.once('exit', (code) => reject(new Error(`consumer ${replica} exited (${code}) before it was ready`)));
        child.send({ type: 'order', target: engine.consumer, replica } satisfies TConsumerOrder);
      });
    const first = await startConsumer('replica-a');
    if (fault === 'consumer-kill') await startConsumer('replica-b');

    const acked: number[] = [];
    let unsettled = 0;
    const perPublisher = Math.ceil(load.devices / load.publishers);
    const publishers = await Promise.all(
      Array.from({ length: load.publishers }, (_, p) => {
        const child = forkChild(PUBLISHER_FILE);
        children.push(child);
        const deviceCount = Math.min(perPublisher, load.devices - p * perPublisher);
        return new Promise<{ child: ChildProcess; done: Promise<void> }>((resolve, reject) => {
          let resolveDone: () => void = () => undefined;
          const done = new Promise<void>((r) => {
            resolveDone = r;
          });
          child.on('message', (m: TPublisherReport) => {
            if (m.type === 'connected') resolve({ child, done });
            else if (m.type === 'acked') for (const id of m.ids) acked.push(id);
            else {
              unsettled += m.unsettled;
              resolveDone();
            }
          });
          child.once('exit', (code) => {
            if (code !== 0) reject(new Error(`publisher ${p} exited (${code})`));
            resolveDone();
          });
          child.send({
            type: 'order',
            mqttPort: engine.mqttPort,
            firstDevice: p * perPublisher,
            deviceCount,
            window: load.window,
            seconds: load.seconds,
            login: engine.deviceLogin,
          } satisfies TPublisherOrder);
        });
      }),
    );

    const cpuStartMs = cpuMsOfPid(engine.pid());
    const startedAt = Date.now();
    for (const p of publishers) p.child.send({ type: 'go' });
    let restarted = false;
    if (fault !== 'none') {
      await sleep((load.seconds * 1000) / 2);
      if (fault === 'engine-kill') {
        await engine.kill9();
        restarted = true;
        await engine.start();
      } else first.kill('SIGKILL');
    }
    await sleep(Math.max(0, startedAt + load.seconds * 1000 - Date.now()));
    const windowMs = Date.now() - startedAt;
    const cpuPct = restarted ? Number.NaN : ((cpuMsOfPid(engine.pid()) - cpuStartMs) / windowMs) * 100;
    const committedInWindow = committed.size;
    await Promise.all(publishers.map((p) => p.done));

    const drainStart = Date.now();
    const ackedSet = new Set(acked);
    const allIn = () => {
      for (const id of ackedSet) if (!committed.has(id)) return false;
      return true;
    };
    let drained = true;
    for (;;) {
      if (allIn() || Date.now() - lastCommitAt > DRAIN_IDLE_MS) break;
      if (Date.now() - drainStart > DRAIN_MAX_MS) {
        drained = false;
        break;
      }
      await sleep(500);
    }
    let lost = 0;
    for (const id of ackedSet) if (!committed.has(id)) lost += 1;
    return {
      acked: ackedSet.size,
      ackedPerS: (ackedSet.size * 1000) / windowMs,
      consumedPerS: (committedInWindow * 1000) / windowMs,
      lost,
      duplicates,
      engineCpuPct: cpuPct,
      drained,
      drainS: (Date.now() - drainStart) / 1000,
      unsettled,
    };
  } finally {
    for (const c of children) c.kill('SIGKILL');
  }
}
