/**
 * The last payloads an integration received (docs/decisions/lorawan.md "Last payloads"): each authenticated request
 * with its outcome, the newest LORAWAN_LOG_SIZE kept per integration, and the integration's counters. Written after
 * the answer is known; a failure to write it is logged and does not change that answer (the points are committed).
 */
import { and, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import {
  LORAWAN_LOG_BODY_MAX,
  LORAWAN_LOG_SIZE,
  type TLorawanOutcome,
  type TLorawanRefusal,
  type TLorawanUplinkLog,
} from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { lorawanIntegrations, lorawanUplinkLog } from '../../db/schema.js';
import { ownedIntegration } from './integration-service.js';

/** One entry to record. */
export interface TUplinkRecord {
  integrationId: number;
  receivedAt: number;
  event: string;
  devEui: string | null;
  tangramId: string | null;
  outcome: TLorawanOutcome;
  reason: TLorawanRefusal | null;
  detail: string;
  points: number;
  status: number;
  body: Buffer;
}

/** The body as text a log can hold: UTF-8 with NUL (which PostgreSQL text refuses) replaced, cut at the limit. */
function loggedBody(body: Buffer): { body: string; truncated: boolean } {
  const text = body.toString('utf8').replaceAll('\u0000', '\uFFFD');
  return text.length > LORAWAN_LOG_BODY_MAX
    ? { body: text.slice(0, LORAWAN_LOG_BODY_MAX), truncated: true }
    : { body: text, truncated: false };
}

/** The integration's counter of each outcome. */
const COUNTER_OF = { stored: 'uplinksStored', refused: 'uplinksRefused', ignored: 'eventsIgnored' } as const;

/**
 * Records `entry`, adds it to its integration's counter and drops the entries older than the newest
 * LORAWAN_LOG_SIZE. Concurrent requests may leave one or two more for a moment; the next one trims them.
 */
export async function recordUplink(db: Db, entry: TUplinkRecord): Promise<void> {
  const { body, truncated } = loggedBody(entry.body);
  await db.insert(lorawanUplinkLog).values({ ...entry, body, truncated });
  const counter = COUNTER_OF[entry.outcome];
  const increment: Partial<Record<typeof counter, SQL>> = { [counter]: sql`${lorawanIntegrations[counter]} + 1` };
  await db
    .update(lorawanIntegrations)
    .set({ ...increment, lastReceivedAt: entry.receivedAt })
    .where(eq(lorawanIntegrations.id, entry.integrationId));
  const [oldestKept] = await db
    .select({ id: lorawanUplinkLog.id })
    .from(lorawanUplinkLog)
    .where(eq(lorawanUplinkLog.integrationId, entry.integrationId))
    .orderBy(desc(lorawanUplinkLog.id))
    .offset(LORAWAN_LOG_SIZE - 1)
    .limit(1);
  if (oldestKept) {
    await db
      .delete(lorawanUplinkLog)
      .where(and(eq(lorawanUplinkLog.integrationId, entry.integrationId), lt(lorawanUplinkLog.id, oldestKept.id)));
  }
}

/**
 * The integration's last payloads, newest first.
 * @throws AppError 404 when the integration is not the tenant's.
 */
export async function listUplinks(db: Db, tenantId: number, projectId: number, id: number): Promise<TLorawanUplinkLog> {
  await ownedIntegration(db, tenantId, projectId, id);
  const rows = await db
    .select()
    .from(lorawanUplinkLog)
    .where(eq(lorawanUplinkLog.integrationId, id))
    .orderBy(desc(lorawanUplinkLog.id))
    .limit(LORAWAN_LOG_SIZE);
  return {
    data: rows.map((r) => ({
      id: r.id,
      received_at: r.receivedAt,
      event: r.event,
      dev_eui: r.devEui,
      tangram_id: r.tangramId,
      outcome: r.outcome,
      reason: r.reason as TLorawanRefusal | null,
      detail: r.detail,
      points: r.points,
      status: r.status,
      body: r.body,
      truncated: r.truncated,
    })),
  };
}
