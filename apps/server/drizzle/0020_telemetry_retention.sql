CREATE TABLE "project_retention" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"raw_days" integer,
	"rollup_1m_days" integer,
	"rollup_1h_days" integer,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_storage_expiry" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"last_run_id" integer NOT NULL,
	"last_run_at" bigint NOT NULL,
	"raw_points_removed" bigint DEFAULT 0 NOT NULL,
	"rollup_rows_removed" bigint DEFAULT 0 NOT NULL,
	"raw_points_removed_total" bigint DEFAULT 0 NOT NULL,
	"rollup_rows_removed_total" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_storage_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"started_at" bigint NOT NULL,
	"finished_at" bigint,
	"days_compressed" integer DEFAULT 0 NOT NULL,
	"points_compressed" bigint DEFAULT 0 NOT NULL,
	"raw_points_removed" bigint DEFAULT 0 NOT NULL,
	"rollup_rows_removed" bigint DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "telemetry_usage_daily" (
	"project_id" integer NOT NULL,
	"day_start" bigint NOT NULL,
	"points" bigint NOT NULL,
	"chunk_bytes" bigint NOT NULL,
	"rollup_1m_rows" bigint NOT NULL,
	"rollup_1h_rows" bigint NOT NULL,
	CONSTRAINT "telemetry_usage_daily_project_id_day_start_pk" PRIMARY KEY("project_id","day_start")
);
--> statement-breakpoint
ALTER TABLE "project_retention" ADD CONSTRAINT "project_retention_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_storage_expiry" ADD CONSTRAINT "project_storage_expiry_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_usage_daily" ADD CONSTRAINT "telemetry_usage_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;