-- Compression in slices (docs/decisions/telemetry-storage.md "Pacing"): the storage job merges a pending partition's
-- day into chunks a slice of series at a time and records in telemetry_compress_progress, per partition and day, the
-- last series (device, key in the partition's primary key order) merged; the partition's rows stay until it is
-- dropped. telemetry_points() (0032's) now leaves out such a row of a series up to the recorded one: the chunk holds
-- it (the chunk's point, stored first, stands, as the merge decided), so a read in the middle of a compression
-- answers what it answers before and after it.
CREATE TABLE "telemetry_compress_progress" (
	"source" text NOT NULL,
	"day_start" bigint NOT NULL,
	"device_id" integer NOT NULL,
	"key_id" integer,
	"key" text,
	CONSTRAINT "telemetry_compress_progress_source_day_start_pk" PRIMARY KEY("source","day_start")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION telemetry_points(p_device integer, p_key text, p_from bigint, p_to bigint)
RETURNS TABLE (ts bigint, svc_recv_ts bigint, v1 double precision, v2 double precision, v3 double precision)
LANGUAGE sql STABLE AS $$
	SELECT t.ts, t.svc_recv_ts, t.v1, t.v2, t.v3 FROM telemetry t
		WHERE t.device_id = p_device AND t.key_id = (SELECT k.id FROM telemetry_keys k WHERE k.key = p_key)
			AND t.ts BETWEEN p_from AND p_to AND t.tableoid <> 'telemetry_default'::regclass
	UNION ALL
	SELECT d.ts, d.svc_recv_ts, d.v1, d.v2, d.v3 FROM telemetry_default d
		WHERE d.device_id = p_device AND d.key_id = (SELECT k.id FROM telemetry_keys k WHERE k.key = p_key)
			AND d.ts BETWEEN p_from AND p_to
			AND NOT EXISTS (SELECT 1 FROM telemetry_chunk_points(p_device, p_key, p_from, p_to) c WHERE c.ts = d.ts)
	UNION ALL
	SELECT w.ts, w.svc_recv_ts, w.v1, w.v2, w.v3 FROM telemetry_cold_pending w
		WHERE w.device_id = p_device AND w.key_id = (SELECT k.id FROM telemetry_keys k WHERE k.key = p_key)
			AND w.ts BETWEEN p_from AND p_to
			AND NOT EXISTS (SELECT 1 FROM telemetry_compress_progress g WHERE g.source = w.tableoid::regclass::text
				AND g.day_start = w.ts - w.ts % 86400000 AND (g.device_id, g.key_id) >= (w.device_id, w.key_id))
	UNION ALL
	SELECT c.ts, c.svc_recv_ts, c.v1, c.v2, c.v3 FROM telemetry_chunk_points(p_device, p_key, p_from, p_to) c
	UNION ALL
	SELECT l.ts, l.svc_recv_ts, l.v1, l.v2, l.v3 FROM (
		SELECT o.ts, o.svc_recv_ts, o.v1, o.v2, o.v3, o.tableoid = 'telemetry_text_keys_default'::regclass AS late,
				o.tableoid::regclass::text AS source
			FROM telemetry_text_keys o WHERE o.device_id = p_device AND o.key = p_key AND o.ts BETWEEN p_from AND p_to
		UNION ALL
		SELECT o.ts, o.svc_recv_ts, o.v1, o.v2, o.v3, false, o.tableoid::regclass::text FROM telemetry_text_keys_pending o
			WHERE o.device_id = p_device AND o.key = p_key AND o.ts BETWEEN p_from AND p_to
	) AS l
		WHERE NOT EXISTS (SELECT 1 FROM telemetry n WHERE n.device_id = p_device
				AND n.key_id = (SELECT k.id FROM telemetry_keys k WHERE k.key = p_key) AND n.ts = l.ts)
			AND NOT EXISTS (SELECT 1 FROM telemetry_cold_pending n WHERE n.device_id = p_device
				AND n.key_id = (SELECT k.id FROM telemetry_keys k WHERE k.key = p_key) AND n.ts = l.ts)
			AND NOT (l.late AND EXISTS (SELECT 1 FROM telemetry_chunk_points(p_device, p_key, p_from, p_to) c WHERE c.ts = l.ts))
			AND NOT EXISTS (SELECT 1 FROM telemetry_compress_progress g WHERE g.source = l.source
				AND g.day_start = l.ts - l.ts % 86400000 AND (g.device_id, g.key) >= (p_device, p_key))
$$;
