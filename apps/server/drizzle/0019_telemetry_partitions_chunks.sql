CREATE TABLE "telemetry_chunk" (
	"device_id" integer NOT NULL,
	"key" text NOT NULL,
	"day_start" bigint NOT NULL,
	"n" integer NOT NULL,
	"ts_first" bigint NOT NULL,
	"ts_step" double precision NOT NULL,
	"ts_steps" integer[] NOT NULL,
	"recv_lags" integer[],
	"recv_lags_wide" bigint[],
	"v1" double precision[],
	"v2" double precision[],
	"v3" double precision[],
	CONSTRAINT "telemetry_chunk_device_id_key_day_start_pk" PRIMARY KEY("device_id","key","day_start")
);
--> statement-breakpoint
-- pglz whatever the server's default: measured smaller than lz4 on these arrays (4.8 against 6.1 bytes a point) and
-- read as fast (docs/decisions/telemetry-storage.md); PGlite has no lz4.
ALTER TABLE "telemetry_chunk" ALTER COLUMN "ts_steps" SET COMPRESSION pglz, ALTER COLUMN "recv_lags" SET COMPRESSION pglz, ALTER COLUMN "recv_lags_wide" SET COMPRESSION pglz, ALTER COLUMN "v1" SET COMPRESSION pglz, ALTER COLUMN "v2" SET COMPRESSION pglz, ALTER COLUMN "v3" SET COMPRESSION pglz;
--> statement-breakpoint
-- Raw telemetry partitioned by UTC day (docs/decisions/telemetry-storage.md). The rows already stored stay where
-- they are: the old table becomes the partition of every ts up to the end of the day of its newest point (or of today) (one
-- scan to check that bound), and the storage job compresses it once that day is cold. An empty old table is dropped.
ALTER TABLE "telemetry" RENAME TO "telemetry_before_partitions";
--> statement-breakpoint
ALTER TABLE "telemetry_before_partitions" RENAME CONSTRAINT "telemetry_device_id_key_ts_pk" TO "telemetry_before_partitions_pk";
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"device_id" integer NOT NULL,
	"key" text NOT NULL,
	"ts" bigint NOT NULL,
	"svc_recv_ts" bigint NOT NULL,
	"v1" double precision,
	"v2" double precision,
	"v3" double precision,
	CONSTRAINT "telemetry_device_id_key_ts_pk" PRIMARY KEY("device_id","key","ts")
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT;
--> statement-breakpoint
-- Day partitions whose day went cold, detached from "telemetry" and waiting for compression into telemetry_chunk.
CREATE TABLE "telemetry_cold_pending" (
	"device_id" integer NOT NULL,
	"key" text NOT NULL,
	"ts" bigint NOT NULL,
	"svc_recv_ts" bigint NOT NULL,
	"v1" double precision,
	"v2" double precision,
	"v3" double precision,
	CONSTRAINT "telemetry_cold_pending_pk" PRIMARY KEY("device_id","key","ts")
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
DO $$
DECLARE
	upto bigint;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM telemetry_before_partitions) THEN
		DROP TABLE telemetry_before_partitions;
		RETURN;
	END IF;
	SELECT (greatest(max(ts), (extract(epoch FROM now()) * 1000)::bigint) / 86400000 + 1) * 86400000 INTO upto
		FROM telemetry_before_partitions;
	EXECUTE format('ALTER TABLE telemetry_before_partitions ADD CONSTRAINT telemetry_before_partitions_range CHECK (ts < %s)', upto);
	EXECUTE format('ALTER TABLE telemetry ATTACH PARTITION telemetry_before_partitions FOR VALUES FROM (MINVALUE) TO (%s)', upto);
END $$;
--> statement-breakpoint
-- The raw points of one device's key with p_from <= ts <= p_to, from hot partitions, cold chunks and partitions
-- waiting for compression; a late point in telemetry_default that a chunk already holds is left out (the chunk's,
-- stored first, stands). Unordered: callers order by ts. One SELECT in SQL, so the planner inlines it and prunes.
CREATE FUNCTION telemetry_chunk_points(p_device integer, p_key text, p_from bigint, p_to bigint)
RETURNS TABLE (ts bigint, svc_recv_ts bigint, v1 double precision, v2 double precision, v3 double precision)
LANGUAGE sql STABLE AS $$
	SELECT p.ts, p.ts + coalesce(p.lag, p.lag_wide), p.v1, p.v2, p.v3 FROM (
		SELECT c.ts_first + round((u.i - 1) * c.ts_step)::bigint + u.step AS ts, u.lag, u.lag_wide, u.v1, u.v2, u.v3
		FROM telemetry_chunk c
		CROSS JOIN LATERAL unnest(c.ts_steps, c.recv_lags, c.recv_lags_wide, c.v1, c.v2, c.v3)
			WITH ORDINALITY AS u(step, lag, lag_wide, v1, v2, v3, i)
		WHERE c.device_id = p_device AND c.key = p_key AND c.day_start > p_from - 86400000 AND c.day_start <= p_to
	) AS p WHERE p.ts BETWEEN p_from AND p_to
$$;
--> statement-breakpoint
CREATE FUNCTION telemetry_points(p_device integer, p_key text, p_from bigint, p_to bigint)
RETURNS TABLE (ts bigint, svc_recv_ts bigint, v1 double precision, v2 double precision, v3 double precision)
LANGUAGE sql STABLE AS $$
	SELECT t.ts, t.svc_recv_ts, t.v1, t.v2, t.v3 FROM telemetry t
		WHERE t.device_id = p_device AND t.key = p_key AND t.ts BETWEEN p_from AND p_to
			AND t.tableoid <> 'telemetry_default'::regclass
	UNION ALL
	SELECT d.ts, d.svc_recv_ts, d.v1, d.v2, d.v3 FROM telemetry_default d
		WHERE d.device_id = p_device AND d.key = p_key AND d.ts BETWEEN p_from AND p_to
			AND NOT EXISTS (SELECT 1 FROM telemetry_chunk_points(p_device, p_key, p_from, p_to) c WHERE c.ts = d.ts)
	UNION ALL
	SELECT w.ts, w.svc_recv_ts, w.v1, w.v2, w.v3 FROM telemetry_cold_pending w
		WHERE w.device_id = p_device AND w.key = p_key AND w.ts BETWEEN p_from AND p_to
	UNION ALL
	SELECT c.ts, c.svc_recv_ts, c.v1, c.v2, c.v3 FROM telemetry_chunk_points(p_device, p_key, p_from, p_to) c
$$;
