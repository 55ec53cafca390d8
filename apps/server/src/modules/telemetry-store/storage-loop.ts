/**
 * Runs the telemetry storage job (storage-job.ts) at start and then every interval, one run at a time, logging what
 * each run did; a failed run is logged and the next one tries again. docs/decisions/telemetry-storage.md.
 */
import type { Logger } from 'pino';
import type { Database } from '../../db/client.js';
import { runTelemetryStorage, type TStorageSettings } from './storage-job.js';

/** A started storage loop. */
export interface TStorageLoop {
  /** Asks for a run as soon as the one under way (if any) ends, e.g. after a bulk write of past days. */
  runSoon(): void;
  /** Stops the loop and the run under way after its current transaction; resolves once that run has ended. */
  stop(): Promise<void>;
}

/**
 * Starts the loop: the first run right away, the next `intervalMs` after each run ends (0: never starts; runSoon
 * does nothing then).
 */
export function startTelemetryStorage(database: Database, settings: TStorageSettings, intervalMs: number, log: Logger): TStorageLoop {
  if (intervalMs <= 0) return { runSoon: () => undefined, stop: async () => undefined };
  let stopped = false;
  let isRunning = false;
  let isWanted = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, delayMs);
  };
  const tick = () => {
    isRunning = true;
    isWanted = false;
    running = runTelemetryStorage(database, settings, Date.now(), { signal: stopping.signal })
      .then((run) => {
        if (!run.skipped && (run.createdDays.length > 0 || run.days > 0 || run.expired.chunks + run.expired.rollupRows > 0))
          log.info({ run }, 'telemetry storage');
      })
      .catch((err: unknown) => log.warn({ err }, 'telemetry storage run failed; the next run tries again'))
      .finally(() => {
        isRunning = false;
        schedule(isWanted ? 0 : intervalMs);
      });
  };
  tick();
  return {
    runSoon: () => {
      if (isRunning) isWanted = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await running;
    },
  };
}
