CREATE TABLE "download_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"spec" jsonb NOT NULL,
	"device_ids" jsonb NOT NULL,
	"status" text DEFAULT 'packaging' NOT NULL,
	"job_state" text DEFAULT 'pending' NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"rows_total" bigint,
	"rows_done" bigint DEFAULT 0 NOT NULL,
	"blob_key" text,
	"file_name" text,
	"file_bytes" bigint,
	"failure" text,
	"reason" text,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"finished_at" bigint,
	"expires_at" bigint
);
--> statement-breakpoint
ALTER TABLE "download_jobs" ADD CONSTRAINT "download_jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_jobs" ADD CONSTRAINT "download_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_jobs_account_idx" ON "download_jobs" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "download_jobs_due_idx" ON "download_jobs" USING btree ("job_state","next_attempt_at");--> statement-breakpoint
CREATE INDEX "download_jobs_expiry_idx" ON "download_jobs" USING btree ("expires_at");