/**
 * Batched alert raises of platform rules (docs/platform-rules.md "Alerts"): a level-style flow raises the same alert
 * (rule, node, device) on every point, and one statement (one commit) per run makes the database the limit at
 * thousands of points per second. So one batch is written at a time (`upsertAlerts`, one statement); the raises
 * arriving meanwhile wait for the next batch, merged per alert (one row counting all of them, with the newest
 * trigger). Each waiter gets its alert's answer; only the first raise of an alert in a batch may be told it opened it
 * (so one run notifies "opened").
 */
import type { Db } from '../../../db/client.js';
import { type TAlertTarget, type TAlertTouch, type TAlertTrigger, upsertAlerts } from '../../alerts/alert-store.js';

/** What a raise answers: the alert as touched, and whether this raise opened it. */
export interface TAlertRaise {
  touch: TAlertTouch;
  opened: boolean;
}

/** At most this many alerts go into one statement. */
export const ALERT_BATCH_MAX = 1_000;

interface TMerged {
  target: TAlertTarget;
  trigger: TAlertTrigger;
  now: number;
  waiters: { resolve: (r: TAlertRaise) => void; reject: (e: unknown) => void }[];
}

/** Batches alert upserts (see the file comment); one per flow engine. */
export class AlertRefresher {
  /** Raises waiting for the next batch, merged per alert key (insertion order kept). */
  private pending = new Map<string, TMerged>();
  private writing = false;

  constructor(
    private readonly db: Db,
    private readonly upsert: typeof upsertAlerts = upsertAlerts,
  ) {}

  /** Raises (opens or refreshes) the alert of `target` at `now` (epoch ms). @throws what the upsert throws. */
  raise(target: TAlertTarget, trigger: TAlertTrigger, now: number): Promise<TAlertRaise> {
    const key = keyOf(target);
    return new Promise<TAlertRaise>((resolve, reject) => {
      const merged = this.pending.get(key);
      if (merged) {
        merged.target = target;
        merged.trigger = trigger ?? merged.trigger;
        merged.now = Math.max(merged.now, now);
        merged.waiters.push({ resolve, reject });
      } else this.pending.set(key, { target, trigger, now, waiters: [{ resolve, reject }] });
      if (!this.writing) void this.writeBatches();
    });
  }

  private async writeBatches(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.size > 0) {
        const batch = [...this.pending.values()].slice(0, ALERT_BATCH_MAX);
        if (batch.length === this.pending.size) this.pending = new Map();
        else for (const m of batch) this.pending.delete(keyOf(m.target));
        try {
          const touches = await this.upsert(
            this.db,
            batch.map((m) => ({ target: m.target, trigger: m.trigger, now: m.now, evaluations: m.waiters.length })),
          );
          batch.forEach((m, i) => {
            const touch = touches[i] as TAlertTouch;
            m.waiters.forEach((w, j) => {
              w.resolve({ touch, opened: touch.inserted && j === 0 });
            });
          });
        } catch (err) {
          for (const m of batch) for (const w of m.waiters) w.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

function keyOf(t: TAlertTarget): string {
  return `${t.kind}:${t.ruleId}:${t.ruleIndex}:${t.deviceId}`;
}
