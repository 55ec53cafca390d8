/**
 * When a scheduled command goes out (docs/platform-rules.md "Scheduled commands"): without a repeat once, at the
 * window's start (at once when stored inside the window); with one, at each cron time inside the window.
 */
import { Cron } from 'croner';

/** The timing of a command schedule: epoch ms window, optional five-field cron and its IANA time zone. */
export interface TCommandTiming {
  startAt: number;
  endAt: number;
  repeatCron: string | null;
  timeZone: string;
}

function cronOf(t: TCommandTiming): Cron {
  return new Cron(t.repeatCron as string, { timezone: t.timeZone, paused: true });
}

/** The first send of a schedule stored at `nowMs`: null when the window has passed. */
export function firstSendAt(t: TCommandTiming, nowMs: number): number | null {
  const from = Math.max(t.startAt, nowMs);
  const at =
    t.repeatCron === null
      ? from
      : (cronOf(t)
          .nextRun(new Date(from - 1))
          ?.getTime() ?? null);
  return at !== null && at <= t.endAt ? at : null;
}

/** The send after the one due at `dueAt`, handled at `nowMs` (a backlog is skipped, not replayed); null when none. */
export function sendAfter(t: TCommandTiming, dueAt: number, nowMs: number): number | null {
  if (t.repeatCron === null) return null;
  const at =
    cronOf(t)
      .nextRun(new Date(Math.max(dueAt, nowMs)))
      ?.getTime() ?? null;
  return at !== null && at <= t.endAt ? at : null;
}
