/**
 * A graceful stop with a deadline (docs/deployment.md "Stopping"): the steps run in order, each given the time left;
 * a step still running when the time is up is left behind and the next one starts, so the process always gets to
 * the end — a database that does not answer cannot keep it alive, still holding its ports.
 */
import type { Logger } from 'pino';
import { settlesWithin } from './deadline.js';

/** One step of the stop: `run` gets the epoch-ms deadline, for work it can cut short itself. */
export interface TShutdownStep {
  name: string;
  run(deadlineAt: number): Promise<unknown>;
}

/** How a stop went: `late` names the steps that had not finished by the deadline (empty: a clean stop). */
export interface TShutdownOutcome {
  withinDeadline: boolean;
  elapsedMs: number;
  late: string[];
}

/**
 * Runs `steps` in order within `deadlineMs` milliseconds. A step that throws is logged and the stop goes on.
 * @returns which steps were late; never throws.
 */
export async function runShutdown(steps: readonly TShutdownStep[], deadlineMs: number, log: Logger): Promise<TShutdownOutcome> {
  const started = Date.now();
  const deadlineAt = started + deadlineMs;
  const late: string[] = [];
  for (const step of steps) {
    let work: Promise<unknown>;
    try {
      work = step.run(deadlineAt);
    } catch (err) {
      work = Promise.reject(err);
    }
    const failed = work.catch((err: unknown) => log.error({ err, step: step.name }, 'error while stopping'));
    if (!(await settlesWithin(failed, deadlineAt - Date.now()))) late.push(step.name);
  }
  const outcome = { withinDeadline: late.length === 0, elapsedMs: Date.now() - started, late };
  if (late.length > 0) log.warn(outcome, 'stopped at the shutdown deadline; the late steps were cut short');
  return outcome;
}
