CREATE TABLE "platform_engine_configs" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"config" jsonb NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_rule_fires" (
	"rule_id" integer NOT NULL,
	"fire_at" bigint NOT NULL,
	"state" text NOT NULL,
	"claimed_at" bigint NOT NULL,
	"run_id" bigint,
	CONSTRAINT "platform_rule_fires_rule_id_fire_at_pk" PRIMARY KEY("rule_id","fire_at")
);
--> statement-breakpoint
CREATE TABLE "platform_rule_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"rule_id" integer NOT NULL,
	"version" integer NOT NULL,
	"trigger" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"error" text,
	"replay" boolean DEFAULT false NOT NULL,
	"started_at" bigint NOT NULL,
	"duration_ms" double precision NOT NULL,
	"steps" jsonb NOT NULL,
	"effects" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"draft" jsonb NOT NULL,
	"applied" jsonb,
	"version" integer DEFAULT 0 NOT NULL,
	"trigger_kind" text,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_run_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platform_engine_configs" ADD CONSTRAINT "platform_engine_configs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_rule_fires" ADD CONSTRAINT "platform_rule_fires_rule_id_platform_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."platform_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_rule_runs" ADD CONSTRAINT "platform_rule_runs_rule_id_platform_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."platform_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_rules" ADD CONSTRAINT "platform_rules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_rule_runs_rule_idx" ON "platform_rule_runs" USING btree ("rule_id","id");--> statement-breakpoint
CREATE INDEX "platform_rule_runs_started_idx" ON "platform_rule_runs" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_rules_tenant_name_uq" ON "platform_rules" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "platform_rules_status_idx" ON "platform_rules" USING btree ("status");