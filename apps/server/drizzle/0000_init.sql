CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"level" text NOT NULL,
	"features" jsonb NOT NULL,
	"language" text DEFAULT 'zh-TW' NOT NULL,
	"must_set_password" boolean DEFAULT false NOT NULL,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"locked_until" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"expires_at" bigint,
	"revoked_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_pages" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"title" text NOT NULL,
	"html" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"updated_by" integer,
	"updated_at" bigint NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_authz" (
	"device_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	CONSTRAINT "device_authz_device_id_account_id_pk" PRIMARY KEY("device_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "device_commands" (
	"req_id" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"account_id" integer,
	"account_email" text NOT NULL,
	"name" text NOT NULL,
	"params" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"error" text,
	"latency_ms" integer,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_ingest_stats" (
	"device_id" integer NOT NULL,
	"reason" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"last_at" bigint NOT NULL,
	CONSTRAINT "device_ingest_stats_device_id_reason_pk" PRIMARY KEY("device_id","reason")
);
--> statement-breakpoint
CREATE TABLE "device_push_settings" (
	"device_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "device_push_settings_device_id_account_id_pk" PRIMARY KEY("device_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "device_status" (
	"device_id" integer NOT NULL,
	"ts" bigint NOT NULL,
	"svc_recv_ts" bigint NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "device_status_device_id_ts_pk" PRIMARY KEY("device_id","ts")
);
--> statement-breakpoint
CREATE TABLE "device_user_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"key" text NOT NULL,
	"slot" text NOT NULL,
	"op" text NOT NULL,
	"threshold" double precision NOT NULL,
	"level" text NOT NULL,
	"enabled" boolean NOT NULL,
	"cooldown_s" integer NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"tangram_id" text NOT NULL,
	"serial_number" text NOT NULL,
	"name" text NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"secret_hash" text NOT NULL,
	"last_seen_at" bigint,
	"status_value" bigint,
	"status_ts" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"sha256" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"number" text NOT NULL,
	"model_number" text NOT NULL,
	"class_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"image_url" text,
	"functions" jsonb,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_blockly_programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"workspace" jsonb NOT NULL,
	"program" jsonb,
	"errors" jsonb NOT NULL,
	"compiled_at" bigint NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_blockly_settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"properties" jsonb NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_notification_emails" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_role_devices" (
	"role_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "project_role_devices_role_id_device_id_pk" PRIMARY KEY("role_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "project_role_members" (
	"role_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	CONSTRAINT "project_role_members_role_id_account_id_pk" PRIMARY KEY("role_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "project_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_sensors" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"value_count" smallint DEFAULT 1 NOT NULL,
	"address" smallint DEFAULT 0 NOT NULL,
	"save_period_ms" integer DEFAULT 1000 NOT NULL,
	"update_period_ms" integer DEFAULT 1000 NOT NULL,
	"upload_period_ms" integer DEFAULT 1000 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"batch" integer DEFAULT 1000 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_simple_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"key" text NOT NULL,
	"slot" text NOT NULL,
	"op" text NOT NULL,
	"threshold" double precision NOT NULL,
	"duration_s" integer NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"notify_email" boolean NOT NULL,
	"notify_line" boolean NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"tangram_product_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"device_authz_method" text DEFAULT 'all' NOT NULL,
	"rule_type" text DEFAULT 'level' NOT NULL,
	"status_groups" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sensor_iface" text DEFAULT 'I2C' NOT NULL,
	"sensor_port" smallint DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"family_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint,
	"revoked_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sensor_display" (
	"sensor_id" integer PRIMARY KEY NOT NULL,
	"decimals" smallint DEFAULT 2 NOT NULL,
	"gauge_min" double precision,
	"gauge_max" double precision,
	"color" text DEFAULT '#1677ff' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tangram_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"model_number" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "tangram_products_model_number_unique" UNIQUE("model_number")
);
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
);
--> statement-breakpoint
CREATE TABLE "telemetry_latest" (
	"device_id" integer NOT NULL,
	"key" text NOT NULL,
	"ts" bigint NOT NULL,
	"svc_recv_ts" bigint NOT NULL,
	"v1" double precision,
	"v2" double precision,
	"v3" double precision,
	CONSTRAINT "telemetry_latest_device_id_key_pk" PRIMARY KEY("device_id","key")
);
--> statement-breakpoint
CREATE TABLE "telemetry_rollup" (
	"device_id" integer NOT NULL,
	"key" text NOT NULL,
	"bucket_ms" integer NOT NULL,
	"bucket_ts" bigint NOT NULL,
	"count" integer NOT NULL,
	"v1_min" double precision,
	"v1_max" double precision,
	"v1_sum" double precision,
	"v2_min" double precision,
	"v2_max" double precision,
	"v2_sum" double precision,
	"v3_min" double precision,
	"v3_max" double precision,
	"v3_sum" double precision,
	"first_ts" bigint NOT NULL,
	"first_v1" double precision,
	"last_ts" bigint NOT NULL,
	"last_v1" double precision,
	CONSTRAINT "telemetry_rollup_device_id_key_bucket_ms_bucket_ts_pk" PRIMARY KEY("device_id","key","bucket_ms","bucket_ts")
);
--> statement-breakpoint
CREATE TABLE "template_sensors" (
	"id" serial PRIMARY KEY NOT NULL,
	"tangram_product_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"value_count" smallint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"vendor_class" text DEFAULT '01' NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_pages" ADD CONSTRAINT "custom_pages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_pages" ADD CONSTRAINT "custom_pages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_pages" ADD CONSTRAINT "custom_pages_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_authz" ADD CONSTRAINT "device_authz_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_authz" ADD CONSTRAINT "device_authz_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_push_settings" ADD CONSTRAINT "device_push_settings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_push_settings" ADD CONSTRAINT "device_push_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_user_rules" ADD CONSTRAINT "device_user_rules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_user_rules" ADD CONSTRAINT "device_user_rules_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_user_rules" ADD CONSTRAINT "device_user_rules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_classes" ADD CONSTRAINT "product_classes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_class_id_product_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."product_classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_blockly_programs" ADD CONSTRAINT "project_blockly_programs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_blockly_settings" ADD CONSTRAINT "project_blockly_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_notification_emails" ADD CONSTRAINT "project_notification_emails_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_role_devices" ADD CONSTRAINT "project_role_devices_role_id_project_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."project_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_role_devices" ADD CONSTRAINT "project_role_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_role_members" ADD CONSTRAINT "project_role_members_role_id_project_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."project_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_role_members" ADD CONSTRAINT "project_role_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_roles" ADD CONSTRAINT "project_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_roles" ADD CONSTRAINT "project_roles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_sensors" ADD CONSTRAINT "project_sensors_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_simple_rules" ADD CONSTRAINT "project_simple_rules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_tangram_product_id_tangram_products_id_fk" FOREIGN KEY ("tangram_product_id") REFERENCES "public"."tangram_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sensor_display" ADD CONSTRAINT "sensor_display_sensor_id_project_sensors_id_fk" FOREIGN KEY ("sensor_id") REFERENCES "public"."project_sensors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_sensors" ADD CONSTRAINT "template_sensors_tangram_product_id_tangram_products_id_fk" FOREIGN KEY ("tangram_product_id") REFERENCES "public"."tangram_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_uq" ON "accounts" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_uq" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "device_authz_account_idx" ON "device_authz" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "device_commands_device_idx" ON "device_commands" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "device_user_rules_device_account_idx" ON "device_user_rules" USING btree ("device_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_tangram_id_uq" ON "devices" USING btree ("tangram_id");--> statement-breakpoint
CREATE INDEX "devices_tenant_idx" ON "devices" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "devices_project_idx" ON "devices" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "images_tenant_sha256_uq" ON "images" USING btree ("tenant_id","sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "product_classes_tenant_name_uq" ON "product_classes" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "products_tenant_model_number_uq" ON "products" USING btree ("tenant_id","model_number");--> statement-breakpoint
CREATE INDEX "products_tenant_idx" ON "products" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "project_blockly_programs_name_uq" ON "project_blockly_programs" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "project_role_devices_device_idx" ON "project_role_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "project_role_members_account_idx" ON "project_role_members" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "project_roles_project_name_uq" ON "project_roles" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE INDEX "project_roles_tenant_idx" ON "project_roles" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "project_sensors_project_key_uq" ON "project_sensors" USING btree ("project_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "project_simple_rules_name_uq" ON "project_simple_rules" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "projects_tenant_idx" ON "projects" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "template_sensors_product_key_uq" ON "template_sensors" USING btree ("tangram_product_id","key");--> statement-breakpoint
CREATE INDEX "verification_codes_email_idx" ON "verification_codes" USING btree ("email","purpose");