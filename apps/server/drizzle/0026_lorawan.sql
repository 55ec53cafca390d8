CREATE TABLE "device_lorawan" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"dev_eui" text NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lorawan_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"network_server" text NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_hint" text NOT NULL,
	"mapping" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uplinks_stored" bigint DEFAULT 0 NOT NULL,
	"uplinks_refused" bigint DEFAULT 0 NOT NULL,
	"events_ignored" bigint DEFAULT 0 NOT NULL,
	"last_received_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lorawan_uplink_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"received_at" bigint NOT NULL,
	"event" text NOT NULL,
	"dev_eui" text,
	"tangram_id" text,
	"outcome" text NOT NULL,
	"reason" text,
	"detail" text DEFAULT '' NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"status" integer NOT NULL,
	"body" text NOT NULL,
	"truncated" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_lorawan" ADD CONSTRAINT "device_lorawan_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_lorawan" ADD CONSTRAINT "device_lorawan_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD CONSTRAINT "lorawan_integrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD CONSTRAINT "lorawan_integrations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lorawan_uplink_log" ADD CONSTRAINT "lorawan_uplink_log_integration_id_lorawan_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."lorawan_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_lorawan_tenant_dev_eui_uq" ON "device_lorawan" USING btree ("tenant_id","dev_eui");--> statement-breakpoint
CREATE INDEX "lorawan_integrations_project_idx" ON "lorawan_integrations" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "lorawan_uplink_log_integration_idx" ON "lorawan_uplink_log" USING btree ("integration_id","id");