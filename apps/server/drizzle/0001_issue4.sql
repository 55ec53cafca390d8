CREATE TABLE "alert_rule_states" (
	"rule_kind" text NOT NULL,
	"rule_id" integer NOT NULL,
	"rule_index" integer DEFAULT 0 NOT NULL,
	"device_id" integer NOT NULL,
	"active" boolean NOT NULL,
	"changed_at" bigint NOT NULL,
	"last_point_ts" bigint NOT NULL,
	"fired_at" bigint,
	CONSTRAINT "alert_rule_states_rule_kind_rule_id_rule_index_device_id_pk" PRIMARY KEY("rule_kind","rule_id","rule_index","device_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"rule_kind" text NOT NULL,
	"rule_id" integer NOT NULL,
	"rule_index" integer DEFAULT 0 NOT NULL,
	"rule_name" text NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"trigger_key" text,
	"trigger_value" double precision,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"notified_at" bigint,
	"flapping" boolean DEFAULT false NOT NULL,
	"acknowledged_at" bigint,
	"acknowledged_by" integer,
	"resolved_at" bigint,
	"resolved_by" integer,
	"resolved_reason" text
);
--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "alert_id" integer;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "rule_renotify_s" integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_rule_states" ADD CONSTRAINT "alert_rule_states_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_accounts_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_resolved_by_accounts_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_active_uq" ON "alerts" USING btree ("rule_kind","rule_id","rule_index","device_id") WHERE state <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_tenant_first_seen_idx" ON "alerts" USING btree ("tenant_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "alerts_device_first_seen_idx" ON "alerts" USING btree ("device_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "alerts_project_first_seen_idx" ON "alerts" USING btree ("project_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "outbox_emails_alert_idx" ON "outbox_emails" USING btree ("alert_id");