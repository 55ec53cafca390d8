CREATE TABLE "project_undeclared_keys" (
	"project_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"key" text NOT NULL,
	"value_type" text NOT NULL,
	"value_count" smallint DEFAULT 1 NOT NULL,
	"first_seen_at" bigint NOT NULL,
	"discarded_at" bigint,
	CONSTRAINT "project_undeclared_keys_project_id_key_pk" PRIMARY KEY("project_id","key")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "accepts_undeclared_keys" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "project_undeclared_keys" ADD CONSTRAINT "project_undeclared_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_undeclared_keys" ADD CONSTRAINT "project_undeclared_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;