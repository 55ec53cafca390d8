CREATE TABLE "ai_model_rollouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"revision_id" integer NOT NULL,
	"created_by" integer,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "ai_model_deployments_device_revision_uq";--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD COLUMN "rollout_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD COLUMN "state" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD COLUMN "progress" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD COLUMN "updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_model_rollouts" ADD CONSTRAINT "ai_model_rollouts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_rollouts" ADD CONSTRAINT "ai_model_rollouts_revision_id_ai_model_revisions_id_fk" FOREIGN KEY ("revision_id") REFERENCES "public"."ai_model_revisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_rollouts" ADD CONSTRAINT "ai_model_rollouts_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_model_rollouts_tenant_idx" ON "ai_model_rollouts" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "ai_model_rollouts_revision_idx" ON "ai_model_rollouts" USING btree ("revision_id");--> statement-breakpoint
ALTER TABLE "ai_model_deployments" ADD CONSTRAINT "ai_model_deployments_rollout_id_ai_model_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."ai_model_rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_model_deployments_current_device_uq" ON "ai_model_deployments" USING btree ("device_id") WHERE "ai_model_deployments"."state" <> 'superseded';--> statement-breakpoint
CREATE INDEX "ai_model_deployments_rollout_idx" ON "ai_model_deployments" USING btree ("rollout_id");