CREATE TABLE "machine_authz" (
	"machine_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	CONSTRAINT "machine_authz_machine_id_account_id_pk" PRIMARY KEY("machine_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "machine_bindings" (
	"machine_id" integer NOT NULL,
	"component_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "machine_bindings_machine_id_component_id_pk" PRIMARY KEY("machine_id","component_id")
);
--> statement-breakpoint
CREATE TABLE "machine_components" (
	"id" serial PRIMARY KEY NOT NULL,
	"configure_id" integer NOT NULL,
	"name" text NOT NULL,
	"product_id" integer NOT NULL,
	"keys" jsonb NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machine_configures" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_url" text,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machines" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"configure_id" integer NOT NULL,
	"name" text NOT NULL,
	"serial_number" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"machine_class" text DEFAULT 'group2_rigid' NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_role_machines" (
	"role_id" integer NOT NULL,
	"machine_id" integer NOT NULL,
	CONSTRAINT "project_role_machines_role_id_machine_id_pk" PRIMARY KEY("role_id","machine_id")
);
--> statement-breakpoint
DROP INDEX "project_roles_project_name_uq";--> statement-breakpoint
DROP INDEX "authz_requests_one_pending_uq";--> statement-breakpoint
ALTER TABLE "project_roles" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "authz_requests" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "plan" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "project_roles" ADD COLUMN "kind" text DEFAULT 'project' NOT NULL;--> statement-breakpoint
ALTER TABLE "authz_requests" ADD COLUMN "machine_id" integer;--> statement-breakpoint
ALTER TABLE "machine_authz" ADD CONSTRAINT "machine_authz_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_authz" ADD CONSTRAINT "machine_authz_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_bindings" ADD CONSTRAINT "machine_bindings_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_bindings" ADD CONSTRAINT "machine_bindings_component_id_machine_components_id_fk" FOREIGN KEY ("component_id") REFERENCES "public"."machine_components"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_bindings" ADD CONSTRAINT "machine_bindings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_components" ADD CONSTRAINT "machine_components_configure_id_machine_configures_id_fk" FOREIGN KEY ("configure_id") REFERENCES "public"."machine_configures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_components" ADD CONSTRAINT "machine_components_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_configures" ADD CONSTRAINT "machine_configures_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_configure_id_machine_configures_id_fk" FOREIGN KEY ("configure_id") REFERENCES "public"."machine_configures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_role_machines" ADD CONSTRAINT "project_role_machines_role_id_project_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."project_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_role_machines" ADD CONSTRAINT "project_role_machines_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_authz_account_idx" ON "machine_authz" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "machine_bindings_device_uq" ON "machine_bindings" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "machine_components_configure_name_uq" ON "machine_components" USING btree ("configure_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "machine_configures_tenant_name_uq" ON "machine_configures" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "machines_tenant_name_uq" ON "machines" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
CREATE INDEX "machines_configure_idx" ON "machines" USING btree ("configure_id");--> statement-breakpoint
CREATE INDEX "project_role_machines_machine_idx" ON "project_role_machines" USING btree ("machine_id");--> statement-breakpoint
ALTER TABLE "authz_requests" ADD CONSTRAINT "authz_requests_machine_id_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "roles_kind_scope_name_uq" ON "project_roles" USING btree ("tenant_id","kind",coalesce("project_id", 0),lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "authz_requests_one_pending_uq" ON "authz_requests" USING btree ("account_id","target",coalesce("project_id", 0),coalesce("device_id", 0),coalesce("machine_id", 0)) WHERE "authz_requests"."status" = 'pending';--> statement-breakpoint
-- Accounts made before machines existed get the machine section (feature code 9) their level now gets by default.
UPDATE "accounts" SET "features" = "features" || '["9"]'::jsonb WHERE "level" IN ('vendor', 'user') AND NOT ("features" ? '9') AND NOT ("features" ? '*');
