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
CREATE TABLE "alert_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"scope" text NOT NULL,
	"project_id" integer,
	"device_id" integer,
	"levels" jsonb NOT NULL,
	"channels" jsonb NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "alert_subscriptions_scope_ck" CHECK (("alert_subscriptions"."scope" = 'project' and "alert_subscriptions"."project_id" is not null and "alert_subscriptions"."device_id" is null) or ("alert_subscriptions"."scope" = 'device' and "alert_subscriptions"."device_id" is not null and "alert_subscriptions"."project_id" is null))
);
--> statement-breakpoint
CREATE TABLE "line_account_links" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"line_user_id" text NOT NULL,
	"linked_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"kind" text NOT NULL,
	"line_id" text NOT NULL,
	"name" text,
	"active" boolean NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_group_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"account_id" integer,
	"contact_id" integer,
	CONSTRAINT "line_group_members_one_target" CHECK ((account_id is null) <> (contact_id is null))
);
--> statement-breakpoint
CREATE TABLE "line_group_projects" (
	"group_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	CONSTRAINT "line_group_projects_group_id_project_id_pk" PRIMARY KEY("group_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "line_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"levels" jsonb NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_link_nonces" (
	"nonce_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_official_accounts" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"bot_basic_id" text NOT NULL,
	"channel_secret_enc" text NOT NULL,
	"access_token_enc" text NOT NULL,
	"webhook_id" text NOT NULL,
	"console_origin" text NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"to" text NOT NULL,
	"text" text NOT NULL,
	"alert_id" integer,
	"group_id" integer,
	"account_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" bigint,
	"retry_key" text NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_webhook_events" (
	"tenant_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "line_webhook_events_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
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
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_account_links" ADD CONSTRAINT "line_account_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_account_links" ADD CONSTRAINT "line_account_links_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_contacts" ADD CONSTRAINT "line_contacts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_group_members" ADD CONSTRAINT "line_group_members_group_id_line_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."line_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_group_members" ADD CONSTRAINT "line_group_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_group_members" ADD CONSTRAINT "line_group_members_contact_id_line_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."line_contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_group_projects" ADD CONSTRAINT "line_group_projects_group_id_line_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."line_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_group_projects" ADD CONSTRAINT "line_group_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_groups" ADD CONSTRAINT "line_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_link_nonces" ADD CONSTRAINT "line_link_nonces_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_link_nonces" ADD CONSTRAINT "line_link_nonces_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_official_accounts" ADD CONSTRAINT "line_official_accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_outbox" ADD CONSTRAINT "line_outbox_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_webhook_events" ADD CONSTRAINT "line_webhook_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_rule_states_device_idx" ON "alert_rule_states" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_active_uq" ON "alerts" USING btree ("rule_kind","rule_id","rule_index","device_id") WHERE state <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_tenant_first_seen_idx" ON "alerts" USING btree ("tenant_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "alerts_device_first_seen_idx" ON "alerts" USING btree ("device_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "alerts_project_first_seen_idx" ON "alerts" USING btree ("project_id","first_seen_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_subscriptions_project_uq" ON "alert_subscriptions" USING btree ("account_id","project_id") WHERE project_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_subscriptions_device_uq" ON "alert_subscriptions" USING btree ("account_id","device_id") WHERE device_id is not null;--> statement-breakpoint
CREATE INDEX "alert_subscriptions_project_idx" ON "alert_subscriptions" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "alert_subscriptions_device_idx" ON "alert_subscriptions" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_account_links_user_uq" ON "line_account_links" USING btree ("tenant_id","line_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_contacts_tenant_line_uq" ON "line_contacts" USING btree ("tenant_id","line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_group_members_account_uq" ON "line_group_members" USING btree ("group_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_group_members_contact_uq" ON "line_group_members" USING btree ("group_id","contact_id");--> statement-breakpoint
CREATE INDEX "line_group_projects_project_idx" ON "line_group_projects" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_groups_name_uq" ON "line_groups" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "line_official_accounts_webhook_uq" ON "line_official_accounts" USING btree ("webhook_id");--> statement-breakpoint
CREATE INDEX "line_outbox_due_idx" ON "line_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "line_outbox_alert_idx" ON "line_outbox" USING btree ("alert_id");--> statement-breakpoint
CREATE INDEX "line_webhook_events_received_idx" ON "line_webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "outbox_emails_alert_idx" ON "outbox_emails" USING btree ("alert_id");