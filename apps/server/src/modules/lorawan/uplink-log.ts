/**
 * The last payloads an integration received (docs/decisions/lorawan.md "Last payloads"): each authenticated request
 * with its outcome, the newest LORAWAN_LOG_SIZE kept per integration, and the integration's counters. Written after
 * the answer is known; a failure to write it is logged and does not change that answer (the points are committed).
 */
import { desc, eq, sql } from 'drizzle-orm';
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

/** The integration's counter column of each outcome. */
const COUNTER_OF = { stored: 'uplinks_stored', refused: 'uplinks_refused', ignored: 'events_ignored' } as const;

/**
 * Records `entry`, adds it to its integration's counter and drops the entries older than the newest
 * LORAWAN_LOG_SIZE, in one statement (one round trip on the answer's path). The trim reads the rows as they were
 * before this insert, so it keeps LORAWAN_LOG_SIZE − 1 of them; concurrent requests may leave one or two more for a
 * moment, which the next one trims.
 */
export async function recordUplink(db: Db, entry: TUplinkRecord): Promise<void> {
  const { body, truncated } = loggedBody(entry.body);
  const counter = sql.identifier(COUNTER_OF[entry.outcome]);
  await db.execute(sql`
    with logged as (
      insert into ${lorawanUplinkLog}
        (integration_id, received_at, event, dev_eui, tangram_id, outcome, reason, detail, points, status, body, truncated)
      values (${entry.integrationId}, ${entry.receivedAt}, ${entry.event}, ${entry.devEui}, ${entry.tangramId}, ${entry.outcome},
        ${entry.reason}, ${entry.detail}, ${entry.points}, ${entry.status}, ${body}, ${truncated})
    ), counted as (
      update ${lorawanIntegrations} set ${counter} = ${counter} + 1, last_received_at = ${entry.receivedAt}
      where id = ${entry.integrationId}
    )
    delete from ${lorawanUplinkLog}
    where integration_id = ${entry.integrationId}
      and id < (select id from ${lorawanUplinkLog} where integration_id = ${entry.integrationId}
                order by id desc offset ${LORAWAN_LOG_SIZE - 2} limit 1)`);
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
