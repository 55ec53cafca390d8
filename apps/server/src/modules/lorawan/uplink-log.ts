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

/**
 * The body as text a log can hold: UTF-8 with NUL (which PostgreSQL text refuses) replaced, cut at the limit — before
 * a surrogate pair the cut would halve (a lone surrogate is refused by PostgreSQL's JSON reading, `write`).
 */
function loggedBody(body: Buffer): { body: string; truncated: boolean } {
  const text = body.toString('utf8').replaceAll('\u0000', '\uFFFD');
  if (text.length <= LORAWAN_LOG_BODY_MAX) return { body: text, truncated: false };
  const last = text.charCodeAt(LORAWAN_LOG_BODY_MAX - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? LORAWAN_LOG_BODY_MAX - 1 : LORAWAN_LOG_BODY_MAX;
  return { body: text.slice(0, end), truncated: true };
}

/**
 * Strings (or nulls) as one PostgreSQL array literal (`{"a","b\\"c",NULL}`), to cast to `text[]`: a column of the
 * batch is one parameter instead of a parameter per row (as telemetry/write-arrays.ts does for ingest). For the short
 * columns; the bodies, JSON text full of quotes, go as one JSON array (`JSON.stringify`, ~1.3 µs a 560-byte body
 * against ~8.5 µs escaping it here).
 */
function textArray(values: readonly (string | null)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i] as string | null;
    if (i > 0) text += ',';
    text += v === null ? 'NULL' : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  }
  return `${text}}`;
}

/** Why a write failed, without the statement and parameters a query error carries (the driver's error, or the error). */
function causeOf(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

/** How long an entry may wait to be written with others, in milliseconds. */
export const UPLINK_LOG_FLUSH_MS = 1000;
/**
 * The window within which the interval's writes put at most LORAWAN_LOG_SIZE rows of one integration, in
 * milliseconds: an integration taking fewer than LORAWAN_LOG_SIZE requests per window has every one written within
 * {@link UPLINK_LOG_FLUSH_MS}; a busier one has its newest LORAWAN_LOG_SIZE written once per window (rows it would
 * trim at once are not written at all). A console read ({@link UplinkLogWriter.flush}) writes what waits whatever the
 * window.
 */
export const UPLINK_LOG_WINDOW_MS = 10_000;

/** An entry waiting to be written, with its place in the order entries came (row ids follow it). */
interface TWaiting {
  seq: number;
  entry: TUplinkRecord;
}

/** What {@link UplinkLogWriter} may be given besides its database and log (tests pass a clock). */
export interface TUplinkLogOptions {
  /** The clock the window is measured by, in epoch ms (default `Date.now`). */
  now?: () => number;
  /** The window, in ms (default {@link UPLINK_LOG_WINDOW_MS}). */
  windowMs?: number;
}

/**
 * Writes the last payloads and the integrations' counters in batches: entries wait up to {@link UPLINK_LOG_FLUSH_MS}
 * and are then written together — one insert of the newest waiting entries of each integration (at most
 * LORAWAN_LOG_SIZE; older ones are dropped as they come: they would be trimmed at once; their bodies are never
 * copied), its columns passed as one array each, one update of every integration's summed outcomes, and one trim to
 * the newest LORAWAN_LOG_SIZE rows of each — instead of a statement per uplink that updates the same counter row.
 * The interval's writes put at most LORAWAN_LOG_SIZE rows of an integration per {@link UPLINK_LOG_WINDOW_MS}; past
 * that its newest entries wait for the next window (the counters are written every interval). A failure is logged and
 * the batch dropped (the points are committed; the log is a view of them). Once the server stops ({@link close}), what
 * comes is written at once rather than after the interval, while the database is still open.
 */
export class UplinkLogWriter {
  /** Per integration, its newest waiting entries (at most LORAWAN_LOG_SIZE), oldest first. */
  private waiting = new Map<number, TWaiting[]>();
  private counts = new Map<number, { stored: number; refused: number; ignored: number; lastReceivedAt: number }>();
  /** Per integration, when its window began and how many rows the interval's writes put in it. */
  private readonly windows = new Map<number, { startedAt: number; rows: number }>();
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private closing = false;
  private readonly now: () => number;
  private readonly windowMs: number;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    options: TUplinkLogOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? UPLINK_LOG_WINDOW_MS;
  }

  /** Queues `entry`; written within {@link UPLINK_LOG_FLUSH_MS} (at once after {@link close}), or its window's end. */
  record(entry: TUplinkRecord): void {
    let kept = this.waiting.get(entry.integrationId);
    if (!kept) {
      kept = [];
      this.waiting.set(entry.integrationId, kept);
    }
    if (kept.length >= LORAWAN_LOG_SIZE) kept.shift();
    kept.push({ seq: this.seq++, entry });
    const c = this.counts.get(entry.integrationId) ?? { stored: 0, refused: 0, ignored: 0, lastReceivedAt: 0 };
    c[entry.outcome] += 1;
    c.lastReceivedAt = Math.max(c.lastReceivedAt, entry.receivedAt);
    this.counts.set(entry.integrationId, c);
    this.schedule();
  }

  /** Writes everything that waits now, whatever the window; resolves once it (and any write before it) is done. Never throws. */
  flush(): Promise<void> {
    return this.writeWaiting(false);
  }

  /**
   * What the interval does: writes the counters and, of each integration, the waiting entries its window has room
   * for (the newest of them); the rest wait. Resolves once written. Never throws.
   */
  flushDue(): Promise<void> {
    return this.writeWaiting(true);
  }

  /** Writes what waits; from now on each entry is written as soon as it comes. */
  close(): Promise<void> {
    this.closing = true;
    return this.flush();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => void this.flushDue(), this.closing ? 0 : UPLINK_LOG_FLUSH_MS);
  }

  private writeWaiting(withinWindows: boolean): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const counts = this.counts;
    this.counts = new Map();
    const due = withinWindows && !this.closing ? this.takeDue() : this.takeAll();
    if (this.waiting.size > 0) this.schedule();
    this.forgetEndedWindows();
    this.writing = this.writing.then(() =>
      counts.size === 0 && due.size === 0
        ? undefined
        : this.write(due, counts).catch((err: unknown) =>
            // The cause only: the failed statement's text would carry every body of the batch into the log line.
            this.log.warn({ err: causeOf(err), integrations: Math.max(counts.size, due.size) }, 'LoRaWAN payloads not logged'),
          ),
    );
    return this.writing;
  }

  /** Every waiting entry, each counted in its integration's window. */
  private takeAll(): Map<number, TWaiting[]> {
    const taken = this.waiting;
    this.waiting = new Map();
    for (const [id, kept] of taken) this.windowOf(id).rows += kept.length;
    return taken;
  }

  /** The waiting entries whose integration's window has room (the newest that fit); the others stay waiting. */
  private takeDue(): Map<number, TWaiting[]> {
    const due = new Map<number, TWaiting[]>();
    for (const [id, kept] of this.waiting) {
      const window = this.windowOf(id);
      const room = LORAWAN_LOG_SIZE - window.rows;
      if (room <= 0) continue;
      due.set(id, kept.length > room ? kept.slice(kept.length - room) : kept);
      window.rows += Math.min(room, kept.length);
      this.waiting.delete(id);
    }
    return due;
  }

  /** Drops the windows that ended, of integrations with nothing waiting (a deleted integration's among them). */
  private forgetEndedWindows(): void {
    const now = this.now();
    for (const [id, window] of this.windows) {
      if (now - window.startedAt >= this.windowMs && !this.waiting.has(id)) this.windows.delete(id);
    }
  }

  /** `id`'s window, a new one when the last began {@link UPLINK_LOG_WINDOW_MS} ago or more. */
  private windowOf(id: number): { startedAt: number; rows: number } {
    const now = this.now();
    let window = this.windows.get(id);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now, rows: 0 };
      this.windows.set(id, window);
    }
    return window;
  }

  private async write(waiting: Map<number, TWaiting[]>, counts: UplinkLogWriter['counts']): Promise<void> {
    if (waiting.size > 0) await this.insert(waiting);
    if (counts.size > 0) await this.count(counts);
    if (waiting.size > 0) await this.trim([...waiting.keys()]);
  }

  /** One insert of `waiting`'s entries in the order they came, a column an array each. */
  private async insert(waiting: Map<number, TWaiting[]>): Promise<void> {
    const rows = [...waiting.values()].flat().sort((a, b) => a.seq - b.seq);
    const bodies = rows.map((r) => loggedBody(r.entry.body));
    const column = <T>(of: (e: TUplinkRecord) => T) => rows.map((r) => of(r.entry));
    await this.db.execute(sql`
      insert into ${lorawanUplinkLog}
        (integration_id, received_at, event, dev_eui, tangram_id, outcome, reason, detail, points, status, body, truncated)
      select * from unnest(
        ${numberColumn(column((e) => e.integrationId))}::text::int[],
        ${numberColumn(column((e) => e.receivedAt))}::text::bigint[],
        ${textArray(column((e) => e.event))}::text::text[],
        ${textArray(column((e) => e.devEui))}::text::text[],
        ${textArray(column((e) => e.tangramId))}::text::text[],
        ${textArray(column((e) => e.outcome))}::text::text[],
        ${textArray(column((e) => e.reason))}::text::text[],
        ${textArray(column((e) => e.detail))}::text::text[],
        ${numberColumn(column((e) => e.points))}::text::int[],
        ${numberColumn(column((e) => e.status))}::text::int[],
        array(select b from json_array_elements_text(${JSON.stringify(bodies.map((b) => b.body))}::json)
          with ordinality as t(b, n) order by n),
        ${textArray(bodies.map((b) => String(b.truncated)))}::text::boolean[])`);
  }

  /** Every integration's counters in one statement: a batch may hold hundreds of integrations. */
  private async count(counts: UplinkLogWriter['counts']): Promise<void> {
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
  }

  /**
   * Per integration of `ids`, the id of its newest row past the LORAWAN_LOG_SIZE kept (read from the (integration, id)
   * index), and every row up to it deleted.
   */
  private async trim(ids: number[]): Promise<void> {
    await this.db.execute(sql`
      delete from ${lorawanUplinkLog} as l using (
        select c.id, (
          select u.id from ${lorawanUplinkLog} as u where u.integration_id = c.id
          order by u.id desc offset ${LORAWAN_LOG_SIZE} limit 1
        ) as newest_dropped
        from unnest(${numberColumn(ids)}::text::int[]) as c(id)
      ) as k
      where l.integration_id = k.id and l.id <= k.newest_dropped`);
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
