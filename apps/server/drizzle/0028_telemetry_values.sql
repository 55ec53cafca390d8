CREATE TABLE "telemetry_values" (
	"device_id" integer NOT NULL,
	"key" text NOT NULL,
	"ts" bigint NOT NULL,
	"svc_recv_ts" bigint NOT NULL,
	"value" jsonb NOT NULL,
	CONSTRAINT "telemetry_values_device_id_key_ts_pk" PRIMARY KEY("device_id","key","ts")
);
--> statement-breakpoint
ALTER TABLE "project_sensors" ADD COLUMN "value_type" text DEFAULT 'number' NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_latest" ADD COLUMN "value" jsonb;