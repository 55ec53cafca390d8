CREATE TABLE "platform_telemetries" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"formula" text NOT NULL,
	"coefficient" double precision DEFAULT 1 NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"latest_value" double precision,
	"latest_ts" bigint,
	"latest_error" text,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_telemetry_devices" (
	"platform_telemetry_id" integer NOT NULL,
	"alias" text NOT NULL,
	"device_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "platform_telemetry_devices_platform_telemetry_id_alias_pk" PRIMARY KEY("platform_telemetry_id","alias")
);
--> statement-breakpoint
CREATE TABLE "platform_telemetry_points" (
	"platform_telemetry_id" integer NOT NULL,
	"ts" bigint NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "platform_telemetry_points_platform_telemetry_id_ts_pk" PRIMARY KEY("platform_telemetry_id","ts")
);
--> statement-breakpoint
ALTER TABLE "platform_telemetries" ADD CONSTRAINT "platform_telemetries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_telemetry_devices" ADD CONSTRAINT "platform_telemetry_devices_platform_telemetry_id_platform_telemetries_id_fk" FOREIGN KEY ("platform_telemetry_id") REFERENCES "public"."platform_telemetries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_telemetry_devices" ADD CONSTRAINT "platform_telemetry_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_telemetry_points" ADD CONSTRAINT "platform_telemetry_points_platform_telemetry_id_platform_telemetries_id_fk" FOREIGN KEY ("platform_telemetry_id") REFERENCES "public"."platform_telemetries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "platform_telemetries_name_uq" ON "platform_telemetries" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "platform_telemetry_devices_device_idx" ON "platform_telemetry_devices" USING btree ("device_id");