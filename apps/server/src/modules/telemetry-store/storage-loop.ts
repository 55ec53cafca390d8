/**
 * Runs the telemetry storage job (storage-job.ts) at start and then every interval, one run at a time, logging what
 * each run did; a failed run is logged and the next one tries again. docs/decisions/telemetry-storage.md.
 */
import type { Logger } from 'pino';
import type { Database } from '../../db/client.js';
import { runTelemetryStorage, type TStorageSettings } from './storage-job.js';

/**
 * Starts the loop: the first run right away, the next `intervalMs` after each run ends (0: never starts).
 * @returns stop(), which resolves once the run under way (if any) has ended.
 */
export function startTelemetryStorage(
  database: Database,
  settings: TStorageSettings,
  intervalMs: number,
  log: Logger,
): () => Promise<void> {
  if (intervalMs <= 0) return async () => undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = runTelemetryStorage(database, settings)
      .then((run) => {
        if (!run.skipped && (run.createdDays.length > 0 || run.days > 0)) log.info({ run }, 'telemetry storage');
      })
      .catch((err: unknown) => log.warn({ err }, 'telemetry storage run failed; the next run tries again'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
