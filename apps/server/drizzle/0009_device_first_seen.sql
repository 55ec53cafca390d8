ALTER TABLE "devices" ADD COLUMN "first_seen_at" bigint;--> statement-breakpoint
-- Devices that reported before this column existed: their earliest stored point (the hourly rollups' first_ts), or
-- their last contact when they only ever sent status words.
UPDATE "devices" SET "first_seen_at" = least(
  coalesce((SELECT min(r."first_ts") FROM "telemetry_rollup" r WHERE r."device_id" = "devices"."id" AND r."bucket_ms" = 3600000), "devices"."last_seen_at"),
  "devices"."last_seen_at")
WHERE "devices"."last_seen_at" IS NOT NULL;
