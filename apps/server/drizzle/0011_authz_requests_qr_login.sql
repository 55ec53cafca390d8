CREATE TABLE "qr_login_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL,
	"request_ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"confirmed_account_id" integer,
	"confirmed_at" bigint,
	"delivered_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "authz_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"target" text NOT NULL,
	"device_id" integer,
	"project_id" integer NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"decided_by" integer,
	"decided_at" bigint,
	"revoked_at" bigint,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_authz" (
	"project_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	CONSTRAINT "project_authz_project_id_account_id_pk" PRIMARY KEY("project_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "qr_login_sessions" ADD CONSTRAINT "qr_login_sessions_confirmed_account_id_accounts_id_fk" FOREIGN KEY ("confirmed_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authz_requests" ADD CONSTRAINT "authz_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authz_requests" ADD CONSTRAINT "authz_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authz_requests" ADD CONSTRAINT "authz_requests_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authz_requests" ADD CONSTRAINT "authz_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authz_requests" ADD CONSTRAINT "authz_requests_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_authz" ADD CONSTRAINT "project_authz_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_authz" ADD CONSTRAINT "project_authz_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "qr_login_sessions_expires_idx" ON "qr_login_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "authz_requests_tenant_idx" ON "authz_requests" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "authz_requests_account_idx" ON "authz_requests" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "authz_requests_one_pending_uq" ON "authz_requests" USING btree ("account_id","target","project_id",coalesce("device_id", 0)) WHERE "authz_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "project_authz_account_idx" ON "project_authz" USING btree ("account_id");