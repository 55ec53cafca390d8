/**
 * Settling a stop across replicas (docs/platform-rules.md "Statuses"): `stop` stores `stopping` with a hold
 * (`held_until`) as long as any replica may still start runs of the rule from its cache; every second each replica
 * renews the hold of the stopping rules it still has runs of (queued or running), then settles to `stopped` every
 * stopping rule whose hold has lapsed and of which it has nothing in flight. A replica that dies stops renewing, so
 * its hold lapses within {@link STOP_HOLD_MS}.
 */
import { and, eq, inArray, isNull, lt, notInArray, or } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { platformRules } from '../../../db/schema.js';

/** How often each replica renews its holds and settles stops, ms. */
export const STOP_SETTLE_EVERY_MS = 1_000;
/** How long one renewal holds a stop, ms (three renewals, so one late tick does not let it lapse). */
export const STOP_HOLD_MS = 3 * STOP_SETTLE_EVERY_MS;

/**
 * The hold a stop starts with, epoch ms: until every replica has dropped the rule from its cache (`ruleCacheMs`)
 * and has had one renewal tick to hold it for a run it started just before.
 */
export function initialStopHold(nowMs: number, ruleCacheMs: number): number {
  return nowMs + ruleCacheMs + 2 * STOP_SETTLE_EVERY_MS;
}

/**
 * One settle tick of this replica: renews the hold of the stopping rules among `inFlightRuleIds` and settles the
 * others whose hold lapsed. Answers the tenants whose rules became `stopped`.
 */
export async function settleStops(db: Db, inFlightRuleIds: readonly number[], nowMs: number): Promise<number[]> {
  const ids = [...inFlightRuleIds];
  if (ids.length > 0) {
    await db
      .update(platformRules)
      .set({ heldUntil: nowMs + STOP_HOLD_MS })
      .where(and(eq(platformRules.status, 'stopping'), inArray(platformRules.id, ids)));
  }
  const settled = await db
    .update(platformRules)
    .set({ status: 'stopped', heldUntil: null, updatedAt: nowMs })
    .where(
      and(
        eq(platformRules.status, 'stopping'),
        or(isNull(platformRules.heldUntil), lt(platformRules.heldUntil, nowMs)),
        ids.length > 0 ? notInArray(platformRules.id, ids) : undefined,
      ),
    )
    .returning({ tenantId: platformRules.tenantId });
  return [...new Set(settled.map((r) => r.tenantId))];
}
