/**
 * The scheduler of platform rules (docs/platform-rules.md "Schedules"): every SCHEDULER_TICK_MS it works out, for
 * each running rule whose start node is a schedule (croner: a cron expression in a time zone, inside the rule's
 * active range), the fires due since it last looked, and claims each in the database — `INSERT … ON CONFLICT DO
 * NOTHING` on the primary key (rule, fire time) of `platform_rule_fires` — so a due fire runs once across any
 * number of replicas, never by a timer alone. A fire missed while no replica ran is run once on start-up when it is
 * at most SCHEDULE_GRACE_MS old, and otherwise recorded as `missed` (and logged). The same pass claims the due sends
 * of scheduled commands (command-schedules.ts) and hands them to the engine.
 */
import { Cron } from 'croner';
import { and, eq, inArray, max } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../../db/client.js';
import { platformRuleFires, platformRules } from '../../../db/schema.js';
import { claimDueSends, type TClaimedSend } from './command-schedules.js';
import { compileFlow } from './compile-flow.js';
import type { TDeployedRule } from './flow-store.js';

/** How often the scheduler looks for due fires, ms. */
export const SCHEDULER_TICK_MS = 250;
/** A fire missed while every replica was down still runs on start-up when at most this old, ms (5 minutes). */
export const SCHEDULE_GRACE_MS = 5 * 60_000;
/** How far back start-up looks for missed fires to record, ms (1 day). */
const MISSED_LOOKBACK_MS = 86_400_000;
/** At most this many fires of one rule are handled in one tick (a schedule of every second after a long pause). */
const FIRES_PER_TICK_MAX = 100;
/** Running schedule rules are read again after this long, ms. */
const RULES_CACHE_MS = 5_000;

interface TScheduledRule extends TDeployedRule {
  cron: Cron;
  activeFrom: number | null;
  activeUntil: number | null;
  /** Fires up to this time (epoch ms) have been handled by this replica. */
  checkedUntil: number | null;
  startedAt: number;
}

/** What the scheduler needs: the database, a log, a clock and the engine to hand a claimed fire to. */
export interface TSchedulerOptions {
  db: Db;
  log: Logger;
  now: () => number;
  /** Runs `rule` for the fire due at `fireAt`; answers when the run is queued. */
  fire(rule: TDeployedRule, fireAt: number): Promise<void>;
  /** Sends a scheduled command this replica claimed (evaluation/flows/command-schedules.ts); must not wait for it. */
  send(claimed: TClaimedSend): void;
}

/** Claims and fires schedule rules; {@link FlowScheduler.tick} runs one pass (tests call it with their clock). */
export class FlowScheduler {
  private rules = new Map<number, TScheduledRule>();
  private loadedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  constructor(private readonly opts: TSchedulerOptions) {}

  /** Starts ticking every SCHEDULER_TICK_MS. */
  start(): void {
    this.timer = setInterval(() => void this.tick(), SCHEDULER_TICK_MS);
    this.timer.unref();
  }

  /** Stops ticking; resolves when the tick in progress is done. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Forgets the cached rules (a rule changed on this replica). */
  changed(): void {
    this.loadedAt = 0;
  }

  /** One pass: reload rules when stale, then claim and fire what is due. Never throws. */
  tick(): Promise<void> {
    this.ticking ??= this.pass()
      .catch((err: unknown) => this.opts.log.warn({ err }, 'platform rules: a scheduler pass failed'))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async pass(): Promise<void> {
    const now = this.opts.now();
    for (const claimed of await claimDueSends(this.opts.db, now)) this.opts.send(claimed);
    if (now - this.loadedAt >= RULES_CACHE_MS || this.loadedAt > now) await this.load(now);
    await this.firstLook(now);
    const due: { rule: TScheduledRule; fireAt: number; missed: boolean }[] = [];
    for (const rule of this.rules.values())
      for (const fireAt of this.dueFires(rule, now)) due.push({ rule, fireAt, missed: now - fireAt > SCHEDULE_GRACE_MS });
    if (due.length === 0) return;
    // One statement claims every due fire of this pass; the primary key lets one replica win each.
    const claimed = await this.opts.db
      .insert(platformRuleFires)
      .values(
        due.map((d) => ({
          ruleId: d.rule.id,
          fireAt: d.fireAt,
          state: d.missed ? ('missed' as const) : ('fired' as const),
          claimedAt: now,
        })),
      )
      .onConflictDoNothing()
      .returning({ ruleId: platformRuleFires.ruleId, fireAt: platformRuleFires.fireAt });
    const won = new Set(claimed.map((c) => `${c.ruleId}:${c.fireAt}`));
    for (const d of due) {
      if (!won.has(`${d.rule.id}:${d.fireAt}`)) continue;
      if (d.missed)
        this.opts.log.warn({ ruleId: d.rule.id, fireAt: d.fireAt }, 'platform rules: a scheduled fire was missed (no replica ran in time)');
      else await this.opts.fire(d.rule, d.fireAt);
    }
  }

  /** Rules this replica has not looked at yet start from their last claimed fire (any replica) or their start. */
  private async firstLook(now: number): Promise<void> {
    const fresh = [...this.rules.values()].filter((r) => r.checkedUntil === null);
    if (fresh.length === 0) return;
    const last = await this.opts.db
      .select({ ruleId: platformRuleFires.ruleId, at: max(platformRuleFires.fireAt) })
      .from(platformRuleFires)
      .where(
        inArray(
          platformRuleFires.ruleId,
          fresh.map((r) => r.id),
        ),
      )
      .groupBy(platformRuleFires.ruleId);
    const lastOf = new Map(last.map((l) => [l.ruleId, Number(l.at ?? 0)]));
    for (const r of fresh) r.checkedUntil = Math.max(lastOf.get(r.id) ?? 0, r.startedAt, now - MISSED_LOOKBACK_MS);
  }

  private async load(now: number): Promise<void> {
    const rows = await this.opts.db
      .select({
        id: platformRules.id,
        tenantId: platformRules.tenantId,
        name: platformRules.name,
        version: platformRules.version,
        applied: platformRules.applied,
        updatedAt: platformRules.updatedAt,
      })
      .from(platformRules)
      .where(and(eq(platformRules.status, 'running'), eq(platformRules.triggerKind, 'schedule')));
    const next = new Map<number, TScheduledRule>();
    for (const r of rows) {
      const old = this.rules.get(r.id);
      if (old && old.version === r.version) {
        next.set(r.id, old);
        continue;
      }
      if (!r.applied) continue;
      const compiled = compileFlow(r.applied);
      if (!compiled.ok || compiled.flow.trigger.kind !== 'schedule') continue;
      const t = compiled.flow.trigger;
      next.set(r.id, {
        id: r.id,
        tenantId: r.tenantId,
        name: r.name,
        version: r.version,
        flow: compiled.flow,
        cron: new Cron(t.cron, { timezone: t.time_zone, paused: true }),
        activeFrom: t.active_from,
        activeUntil: t.active_until,
        checkedUntil: old?.checkedUntil ?? null,
        startedAt: r.updatedAt,
      });
    }
    this.rules = next;
    this.loadedAt = now;
  }

  /** The fires of `rule` due in (checkedUntil, now] inside its active range (at most FIRES_PER_TICK_MAX). */
  private dueFires(rule: TScheduledRule, now: number): number[] {
    const fires: number[] = [];
    let cursor = new Date(rule.checkedUntil ?? now);
    while (fires.length < FIRES_PER_TICK_MAX) {
      const next = rule.cron.nextRun(cursor);
      if (!next || next.getTime() > now) break;
      fires.push(next.getTime());
      cursor = next;
    }
    rule.checkedUntil = fires.length === FIRES_PER_TICK_MAX ? (fires.at(-1) as number) : now;
    return fires.filter(
      (fireAt) => (rule.activeFrom === null || fireAt >= rule.activeFrom) && (rule.activeUntil === null || fireAt <= rule.activeUntil),
    );
  }
}
