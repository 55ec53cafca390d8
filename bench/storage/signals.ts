/**
 * The bench's points: `devices` devices × 4 keys at 1 Hz for `days` UTC days, generated once in PostgreSQL into an
 * unlogged staging table (not measured) so that every layout stores exactly the same rows.
 *
 * Signals (one value each, v2 and v3 absent, as the issue asks):
 * - `temperature` (°C, 0.01 resolution): a daily swing plus a slow drift per device, plus sensor noise;
 * - `humidity` (%, 0.1 resolution): a slower swing with noise;
 * - `status`: a mostly constant machine state (1 running, 0 stopped, 2 fault for a few minutes a day);
 * - `vibration` (mm/s RMS, 0.001 resolution): noisy, |N(2.5, 0.6)|-like.
 * Device time: the whole second plus 0–19 ms of sampling jitter; receive time: 40–239 ms later (network latency).
 */
import type pg from 'pg';

/** The bench's keys and the small ids the compact layouts store instead of the text. */
export const KEYS = [
  { id: 1, name: 'temperature' },
  { id: 2, name: 'humidity' },
  { id: 3, name: 'status' },
  { id: 4, name: 'vibration' },
] as const;

/** A UTC day in ms. */
export const DAY_MS = 86_400_000;

/** Midnight UTC of the bench's first day (a fixed date, so runs are comparable). */
export const FIRST_DAY = Date.UTC(2026, 0, 1);

/**
 * Creates and fills `staging(device_id int, key_id int, key text, ts bigint, svc_recv_ts bigint, v1 float8)`
 * with `devices × 4 × days × 86,400` rows in time order (the order ingest writes them), one day per statement.
 * The values are deterministic (setseed) so two runs store the same data.
 */
export async function fillStaging(pool: pg.Pool, devices: number, days: number): Promise<void> {
  await pool.query(`create unlogged table staging (device_id int not null, key_id int not null, key text not null,
    ts bigint not null, svc_recv_ts bigint not null, v1 float8)`);
  const keyValues = KEYS.map((k) => `(${k.id}::int, '${k.name}')`).join(', ');
  for (let day = 0; day < days; day += 1) {
    const client = await pool.connect();
    try {
      await client.query('select setseed($1)', [((day % 1000) + 1) / 1001]);
      await client.query(
        `insert into staging
         select d, k.id, k.name, ts, ts + 40 + floor(random() * 200)::int, case k.id
           when 1 then round((22 + 3 * sin(2 * pi() * s / 86400.0 + d) + 0.8 * sin(2 * pi() * ($2 * 86400 + s) / (86400.0 * 9) + d * 7)
                        + (random() - 0.5) * 0.3)::numeric, 2)::float8
           when 2 then round((55 + 12 * sin(2 * pi() * s / 86400.0 + d * 3) + (random() - 0.5) * 1.5)::numeric, 1)::float8
           when 3 then case when (s + d * 977) % 86400 < 600 then 2 when (s + d * 977) % 86400 < 79200 then 1 else 0 end
           else round(abs(2.5 + (random() + random() + random() - 1.5) * 0.7)::numeric, 3)::float8
         end
         from generate_series(0, 86399) as s, generate_series(1, $3::int) as d,
           lateral (select $1::bigint + s * 1000 + floor(random() * 20)::int + 0 * d as ts) as t,
           (values ${keyValues}) as k(id, name)
         order by s, d, k.id`,
        [FIRST_DAY + day * DAY_MS, day, devices],
      );
    } finally {
      client.release();
    }
  }
  await pool.query('create index on staging (device_id, key_id, ts)');
  await pool.query('analyze staging');
}
