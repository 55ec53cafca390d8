/**
 * The last payloads an integration received (docs/decisions/lorawan.md "Last payloads"): each authenticated request
 * with its outcome, the newest LORAWAN_LOG_SIZE kept per integration, and the integration's counters. Written in
 * batches after the answer is known; a failure to write it is logged and does not change that answer (the points are
 * committed).
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
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
import { numberColumn } from '../telemetry/write-arrays.js';

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

/** How long an entry may wait to be written with others, in milliseconds. */
export const UPLINK_LOG_FLUSH_MS = 100;

/**
 * Writes the last payloads and the integrations' counters in batches: entries wait up to {@link UPLINK_LOG_FLUSH_MS}
 * and are then written together — one insert of every waiting entry (only the newest LORAWAN_LOG_SIZE per
 * integration: older ones would be trimmed at once), one update of every integration's summed outcomes, and
 * one trim to the newest LORAWAN_LOG_SIZE rows of each — instead of a statement per uplink that updates the same
 * counter row. A failure is logged and the batch dropped (the points are committed; the log is a view of them).
 */
export class UplinkLogWriter {
  private waiting: { entry: TUplinkRecord; body: string; truncated: boolean }[] = [];
  private counts = new Map<number, { stored: number; refused: number; ignored: number; lastReceivedAt: number }>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Queues `entry`; written within {@link UPLINK_LOG_FLUSH_MS}. */
  record(entry: TUplinkRecord): void {
    this.waiting.push({ entry, ...loggedBody(entry.body) });
    const c = this.counts.get(entry.integrationId) ?? { stored: 0, refused: 0, ignored: 0, lastReceivedAt: 0 };
    c[entry.outcome] += 1;
    c.lastReceivedAt = Math.max(c.lastReceivedAt, entry.receivedAt);
    this.counts.set(entry.integrationId, c);
    this.timer ??= setTimeout(() => void this.flush(), UPLINK_LOG_FLUSH_MS);
  }

  /** Writes what waits now; resolves once it (and any write before it) is done. Never throws. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const waiting = this.waiting;
    const counts = this.counts;
    this.waiting = [];
    this.counts = new Map();
    this.writing = this.writing.then(() =>
      waiting.length === 0
        ? undefined
        : this.write(waiting, counts).catch((err: unknown) =>
            this.log.warn({ err, entries: waiting.length }, 'LoRaWAN payloads not logged'),
          ),
    );
    return this.writing;
  }

  /** Writes what waits and stops. */
  close(): Promise<void> {
    return this.flush();
  }

  private async write(waiting: UplinkLogWriter['waiting'], counts: UplinkLogWriter['counts']): Promise<void> {
    const kept = new Map<number, number>();
    const rows: UplinkLogWriter['waiting'] = [];
    for (let i = waiting.length - 1; i >= 0; i -= 1) {
      const w = waiting[i] as UplinkLogWriter['waiting'][number];
      const n = kept.get(w.entry.integrationId) ?? 0;
      if (n >= LORAWAN_LOG_SIZE) continue;
      kept.set(w.entry.integrationId, n + 1);
      rows.push(w);
    }
    rows.reverse();
    await this.db.insert(lorawanUplinkLog).values(
      rows.map(({ entry: e, body, truncated }) => ({
        integrationId: e.integrationId,
        receivedAt: e.receivedAt,
        event: e.event,
        devEui: e.devEui,
        tangramId: e.tangramId,
        outcome: e.outcome,
        reason: e.reason,
        detail: e.detail,
        points: e.points,
        status: e.status,
        body,
        truncated,
      })),
    );
    // Every integration's counters in one statement: a batch may hold hundreds of integrations.
    const totals = [...counts];
    await this.db.execute(sql`
      update ${lorawanIntegrations} as i set
        uplinks_stored = i.uplinks_stored + c.stored,
        uplinks_refused = i.uplinks_refused + c.refused,
        events_ignored = i.events_ignored + c.ignored,
        last_received_at = greatest(i.last_received_at, c.last_received_at)
      from unnest(${numberColumn(totals.map(([id]) => id))}::text::int[],
        ${numberColumn(totals.map(([, c]) => c.stored))}::text::int[],
        ${numberColumn(totals.map(([, c]) => c.refused))}::text::int[],
        ${numberColumn(totals.map(([, c]) => c.ignored))}::text::int[],
        ${numberColumn(totals.map(([, c]) => c.lastReceivedAt))}::text::bigint[])
        as c(id, stored, refused, ignored, last_received_at)
      where i.id = c.id`);
    const ids = [...counts.keys()];
    await this.db.execute(sql`
      delete from ${lorawanUplinkLog} where id in (
        select id from (
          select id, row_number() over (partition by integration_id order by id desc) as n
          from ${lorawanUplinkLog} where integration_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})
        ) ranked where n > ${LORAWAN_LOG_SIZE})`);
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
