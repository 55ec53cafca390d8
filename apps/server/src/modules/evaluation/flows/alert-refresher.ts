/**
 * Batched alert raises of platform rules (docs/platform-rules.md "Alerts"): a level-style flow raises the same alert
 * (rule, node, device) on every point, and one statement (one commit) per run makes the database the limit at
 * thousands of points per second. So the raises of one tick — the runs of a committed batch start together
 * (batch-matcher.ts) and reach their alert node in the same tick — are merged per alert (one row counting all of
 * them, with the newest trigger) and written as one statement (`upsertAlerts`) once the tick ends. Up to
 * ALERT_WRITES_IN_FLIGHT statements run at once: a batch does not wait for the one before it, because the upsert's
 * outcome does not depend on the order in which two statements reach a row (the newest `now` keeps its trigger, and
 * each batch's times are later than the one before's; counts add) and each statement locks its rows in key order, so two never deadlock. Each waiter gets its alert's
 * answer; only the first raise of an alert in a batch may be told it opened it (so one run notifies "opened").
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
/** Upsert statements in progress at once (each holds one pooled connection while it runs). */
export const ALERT_WRITES_IN_FLIGHT = 3;

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
  private inFlight = 0;
  private scheduled = false;
  /** The newest `now` of the batches taken so far (epoch ms). */
  private lastNow = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly upsert: typeof upsertAlerts = upsertAlerts,
    private readonly maxInFlight: number = ALERT_WRITES_IN_FLIGHT,
  ) {}

  /** Raises (opens or refreshes) the alert of `target` at `now` (epoch ms). @throws what the upsert throws. */
  raise(target: TAlertTarget, trigger: TAlertTrigger, now: number): Promise<TAlertRaise> {
    const key = keyOf(target);
    return new Promise<TAlertRaise>((resolve, reject) => {
      const merged = this.pending.get(key);
      if (merged) {
        merged.target = target;
        if (now >= merged.now) {
          merged.trigger = trigger ?? merged.trigger;
          merged.now = now;
        }
        merged.waiters.push({ resolve, reject });
      } else this.pending.set(key, { target, trigger, now, waiters: [{ resolve, reject }] });
      this.schedule();
    });
  }

  /** Starts the next batches once the current tick's raises are all in (setImmediate runs after its microtasks). */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.pending.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.maxInFlight && this.pending.size > 0) void this.writeBatch(this.takeBatch());
    });
  }

  /**
   * The next batch. Its raises' times are made later than every earlier batch's (by a millisecond at most per batch):
   * statements in flight together are ordered by `now` alone, and two raises of one alert in the same millisecond
   * would otherwise tie, letting the older trigger win when its statement reached the row last.
   */
  private takeBatch(): TMerged[] {
    const batch = [...this.pending.values()].slice(0, ALERT_BATCH_MAX);
    if (batch.length === this.pending.size) this.pending = new Map();
    else for (const m of batch) this.pending.delete(keyOf(m.target));
    const floor = this.lastNow + 1;
    for (const m of batch) {
      m.now = Math.max(m.now, floor);
      this.lastNow = Math.max(this.lastNow, m.now);
    }
    return batch;
  }

  private async writeBatch(batch: TMerged[]): Promise<void> {
    this.inFlight += 1;
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
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }
}

function keyOf(t: TAlertTarget): string {
  return `${t.kind}:${t.ruleId}:${t.ruleIndex}:${t.deviceId}`;
}
