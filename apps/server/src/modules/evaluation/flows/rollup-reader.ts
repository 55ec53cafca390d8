/**
 * Batched rollup reads of platform-rule aggregation nodes (docs/platform-rules.md "What a trace costs"). A rule with
 * an aggregation on a hot key reads the rollups once per run: a round trip and a pool connection each, a thousand a
 * second at the default rate, which took ingest's commits their connections. So one statement reads at a time
 * (at most ROLLUP_READS_MAX requests, each device, key and range its own group), the first after the event-loop turn
 * of its first request; the requests arriving meanwhile wait for the next statement. The next statement starts after they were made, so a run still sees every point
 * committed before it started — a batch is never older than a read of its own would have been.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client.js';

/** One slot's figures over a range of rollup buckets (null sums and count without a bucket). */
export interface TRollupFigures {
  n: string | number | null;
  mn: number | null;
  mx: number | null;
  s: string | number | null;
  first: number | null;
  last: number | null;
}

/** What one read asks: the buckets of `bucketMs` of a device's key with bucket_ts in [fromMs, toMs]. */
export interface TRollupRead {
  deviceId: number;
  key: string;
  slot: 1 | 2 | 3;
  bucketMs: number;
  fromMs: number;
  toMs: number;
}

/** Requests read in one statement at most. */
export const ROLLUP_READS_MAX = 500;

interface TWaiting {
  read: TRollupRead;
  resolve: (figures: TRollupFigures | undefined) => void;
  reject: (err: unknown) => void;
}

type TRow = { i: number } & Record<`n` | `mn${1 | 2 | 3}` | `mx${1 | 2 | 3}` | `s${1 | 2 | 3}` | 'first' | 'last', number | string | null>;

/** Reads rollups for many runs in one statement at a time (see the file comment); one per flow engine. */
export class RollupReader {
  private waiting: TWaiting[] = [];
  private reading = false;
  /** Statements sent since start (tests and benchmarks read it). */
  statements = 0;

  constructor(private readonly db: Db) {}

  /** The figures of `read`'s slot, undefined without a bucket in range. @throws what the query throws. */
  read(read: TRollupRead): Promise<TRollupFigures | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ read, resolve, reject });
      if (this.reading) return;
      // The reads of runs started in the same turn go out together: the statement waits for the turn to end.
      this.reading = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, ROLLUP_READS_MAX);
        try {
          const rows = await this.query(batch.map((w) => w.read));
          const byIndex = new Map(rows.map((r) => [Number(r.i), r]));
          for (const [i, w] of batch.entries()) w.resolve(figuresOf(byIndex.get(i), w.read.slot));
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.reading = false;
    }
  }

  private async query(reads: readonly TRollupRead[]): Promise<TRow[]> {
    const asked = JSON.stringify(
      reads.map((r, i) => ({ i, device_id: r.deviceId, key: r.key, bucket_ms: r.bucketMs, from_ts: r.fromMs, to_ts: r.toMs })),
    );
    this.statements += 1;
    return rowsOf<TRow>(
      // One primary-key range scan per request (the lateral subquery is parameterised by it): the plan does not hang
      // on the table's statistics, which lag far behind its size while hot buckets are rewritten by every batch.
      await this.db.execute(sql`
        select q.i, a.*
        from jsonb_to_recordset(${asked}::jsonb) as q(i int, device_id int, key text, bucket_ms int, from_ts bigint, to_ts bigint)
        cross join lateral (
          select sum(r.count) as n,
            min(r.v1_min) as mn1, max(r.v1_max) as mx1, sum(r.v1_sum) as s1,
            min(r.v2_min) as mn2, max(r.v2_max) as mx2, sum(r.v2_sum) as s2,
            min(r.v3_min) as mn3, max(r.v3_max) as mx3, sum(r.v3_sum) as s3,
            (array_agg(r.first_v1 order by r.first_ts asc))[1] as first, (array_agg(r.last_v1 order by r.last_ts desc))[1] as last
          from telemetry_rollup r
          where r.device_id = q.device_id and r.key = q.key and r.bucket_ms = q.bucket_ms
            and r.bucket_ts >= q.from_ts and r.bucket_ts <= q.to_ts
        ) as a
        where a.n is not null`),
    );
  }
}

function figuresOf(row: TRow | undefined, slot: 1 | 2 | 3): TRollupFigures | undefined {
  if (!row) return undefined;
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    n: row.n,
    mn: num(row[`mn${slot}`]),
    mx: num(row[`mx${slot}`]),
    s: row[`s${slot}`],
    first: num(row.first),
    last: num(row.last),
  };
}
