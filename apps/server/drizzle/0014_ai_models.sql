CREATE TABLE "ai_model_deployments" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"revision_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_model_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"blob_key" text NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"file_name" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"uploaded_by" integer,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"framework" text NOT NULL,
	"tangram_product_id" integer NOT NULL,
	"input_description" text DEFAULT '' NOT NULL,
	"output_description" text DEFAULT '' NOT NULL,
	"next_revision" integer DEFAULT 1 NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD CONSTRAINT "ai_model_deployments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD CONSTRAINT "ai_model_deployments_revision_id_ai_model_revisions_id_fk" FOREIGN KEY ("revision_id") REFERENCES "public"."ai_model_revisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD CONSTRAINT "ai_model_deployments_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_revisions" ADD CONSTRAINT "ai_model_revisions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_revisions" ADD CONSTRAINT "ai_model_revisions_model_id_ai_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."ai_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_revisions" ADD CONSTRAINT "ai_model_revisions_uploaded_by_accounts_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_models" ADD CONSTRAINT "ai_models_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_models" ADD CONSTRAINT "ai_models_tangram_product_id_tangram_products_id_fk" FOREIGN KEY ("tangram_product_id") REFERENCES "public"."tangram_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_model_deployments_device_revision_uq" ON "ai_model_deployments" USING btree ("device_id","revision_id");--> statement-breakpoint
CREATE INDEX "ai_model_deployments_revision_idx" ON "ai_model_deployments" USING btree ("revision_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_model_revisions_model_revision_uq" ON "ai_model_revisions" USING btree ("model_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_models_tenant_name_uq" ON "ai_models" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
-- Vendors made before the model registry existed get its page (feature code 13:1), as new vendors do by default.
UPDATE "accounts" SET "features" = "features" || '["13:1"]'::jsonb WHERE "level" = 'vendor' AND NOT ("features" ? '13:1') AND NOT ("features" ? '13') AND NOT ("features" ? '*');
