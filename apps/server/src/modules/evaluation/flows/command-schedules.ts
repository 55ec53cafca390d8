/**
 * Scheduled commands (docs/platform-rules.md "Scheduled commands"; spec §3 `deviceSchedulerParallelControl`, §5
 * "Schedule start before end and inside the active range"). A run of the node stores one schedule per (rule, node),
 * replacing the one before: the command, the devices, the window [start_at, end_at] and an optional repeat (cron in
 * a time zone). Without a repeat the command goes out once, at `start_at` (at once when the node runs inside the
 * window); with one, at each cron time inside the window. `next_at` holds the next due send; a replica claims it by
 * moving `next_at` on from the value it read (compare and set), so each send goes out once across replicas. The
 * sending itself is scheduled-sends.ts.
 */
import type { TFlowCommand } from '@tessera/contracts';
import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { platformCommandSchedules, platformRules } from '../../../db/schema.js';
import { firstSendAt, sendAfter, type TCommandTiming } from './command-timing.js';

/** A stored command schedule as the scheduler reads it when due. */
export type TCommandScheduleRow = typeof platformCommandSchedules.$inferSelect;

/** At most this many due sends are claimed in one scheduler pass. */
const SENDS_PER_PASS_MAX = 100;

/**
 * Stores (or replaces) the schedule of `ruleId`'s node `nodeId`. Answers the first send time (epoch ms), or null
 * when the window has already passed (the schedule is stored with nothing left to send).
 */
export async function storeCommandSchedule(
  db: Db,
  rule: { id: number; tenantId: number },
  s: TCommandTiming & { nodeId: string; tangramIds: string[]; command: TFlowCommand },
  nowMs: number,
): Promise<number | null> {
  const nextAt = firstSendAt(s, nowMs);
  const values = {
    tenantId: rule.tenantId,
    tangramIds: s.tangramIds,
    command: s.command,
    startAt: s.startAt,
    endAt: s.endAt,
    repeatCron: s.repeatCron,
    timeZone: s.timeZone,
    nextAt,
    updatedAt: nowMs,
  };
  await db
    .insert(platformCommandSchedules)
    .values({ ruleId: rule.id, nodeId: s.nodeId, ...values })
    .onConflictDoUpdate({ target: [platformCommandSchedules.ruleId, platformCommandSchedules.nodeId], set: values });
  return nextAt;
}

/** A due send this replica won: the schedule as read, and whether its rule runs now. */
export interface TClaimedSend {
  schedule: TCommandScheduleRow;
  dueAt: number;
  rule: { id: number; tenantId: number; name: string; version: number; status: string; applied: unknown };
}

/**
 * Claims the sends due at `nowMs` (at most SENDS_PER_PASS_MAX): for each, moves `next_at` on to the following send
 * only if no other replica did first. Answers the sends won.
 */
export async function claimDueSends(db: Db, nowMs: number): Promise<TClaimedSend[]> {
  const due = await db
    .select({
      schedule: platformCommandSchedules,
      rule: {
        id: platformRules.id,
        tenantId: platformRules.tenantId,
        name: platformRules.name,
        version: platformRules.version,
        status: platformRules.status,
        applied: platformRules.applied,
      },
    })
    .from(platformCommandSchedules)
    .innerJoin(platformRules, eq(platformRules.id, platformCommandSchedules.ruleId))
    .where(and(isNotNull(platformCommandSchedules.nextAt), lte(platformCommandSchedules.nextAt, nowMs)))
    .orderBy(asc(platformCommandSchedules.nextAt))
    .limit(SENDS_PER_PASS_MAX);
  const won: TClaimedSend[] = [];
  for (const d of due) {
    const dueAt = d.schedule.nextAt as number;
    const next = sendAfter(d.schedule, dueAt, nowMs);
    const claimed = await db
      .update(platformCommandSchedules)
      .set({ nextAt: next, lastSentAt: nowMs, updatedAt: nowMs })
      .where(
        and(
          eq(platformCommandSchedules.ruleId, d.schedule.ruleId),
          eq(platformCommandSchedules.nodeId, d.schedule.nodeId),
          eq(platformCommandSchedules.nextAt, dueAt),
        ),
      )
      .returning({ ruleId: platformCommandSchedules.ruleId });
    if (claimed.length === 1) won.push({ schedule: d.schedule, dueAt, rule: d.rule });
  }
  return won;
}
