CREATE TABLE "platform_command_schedules" (
	"rule_id" integer NOT NULL,
	"node_id" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"tangram_ids" jsonb NOT NULL,
	"command" jsonb NOT NULL,
	"start_at" bigint NOT NULL,
	"end_at" bigint NOT NULL,
	"repeat_cron" text,
	"time_zone" text NOT NULL,
	"next_at" bigint,
	"last_sent_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	CONSTRAINT "platform_command_schedules_rule_id_node_id_pk" PRIMARY KEY("rule_id","node_id")
);
--> statement-breakpoint
ALTER TABLE "platform_rules" ADD COLUMN "held_until" bigint;--> statement-breakpoint
ALTER TABLE "platform_command_schedules" ADD CONSTRAINT "platform_command_schedules_rule_id_platform_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."platform_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_command_schedules_next_idx" ON "platform_command_schedules" USING btree ("next_at");