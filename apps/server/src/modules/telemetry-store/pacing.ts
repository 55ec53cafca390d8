/**
 * Pacing of the telemetry storage job (docs/decisions/telemetry-storage.md "Pacing"): the job's work comes in short
 * transactions (a slice of a day's compression, a batch of expiry), and after each one the job rests so that it is
 * busy at most a set share of the time — on a machine whose cores ingest and PostgreSQL share, a compression running
 * flat out takes a whole core from ingest. The rest is measured in wall time, so a slice slowed by a loaded machine
 * earns a longer rest. A run can be stopped between two pieces of work (the server's stop); what was committed stays.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Paces the job's pieces of work to a duty cycle and tells when the run is asked to stop. */
export class Pacer {
  private readonly restPerBusy: number;

  /**
   * @param busyPercent - the share of the time the work may take, 1–100 (100: no rest).
   * @param signal - aborted to stop the run: the rest under way ends at once and {@link Pacer.isStopped} turns true.
   */
  constructor(
    busyPercent = 100,
    private readonly signal?: AbortSignal,
  ) {
    const share = Math.min(100, Math.max(1, busyPercent));
    this.restPerBusy = (100 - share) / share;
  }

  /** Whether the run was asked to stop: start no further piece of work. */
  get isStopped(): boolean {
    return this.signal?.aborted ?? false;
  }

  /**
   * Runs one piece of `work` (a transaction), then rests its duration × (100 − busy %) / busy % (cut short when
   * the run is stopped). Answers what `work` answered.
   * @throws what `work` throws (then no rest).
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    const result = await work();
    const restMs = (performance.now() - startedAt) * this.restPerBusy;
    if (restMs >= 1 && !this.isStopped) await sleep(restMs, undefined, { signal: this.signal }).catch(() => undefined);
    return result;
  }
}

/** A pacer that never rests nor stops (tests, benches that time the work itself). */
export const UNPACED = new Pacer();
