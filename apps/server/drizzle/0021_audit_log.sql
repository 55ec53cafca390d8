CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"tenant_id" integer,
	"actor_account_id" integer,
	"actor_email" text,
	"actor_via" text,
	"acting_admin_id" integer,
	"acting_admin_email" text,
	"ip" text,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"action" text NOT NULL,
	"changes" jsonb NOT NULL,
	"route" text,
	"request_id" text
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "acting_admin_id" integer;--> statement-breakpoint
CREATE INDEX "audit_log_tenant_at_idx" ON "audit_log" USING btree ("tenant_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
-- Append-only (docs/decisions/audit-log.md "Append-only"): UPDATE and TRUNCATE are refused; DELETE only of rows older
-- than the cutoff (epoch ms) that the retention purge sets for its own transaction in tessera.audit_purge_before.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cutoff text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    cutoff := current_setting('tessera.audit_purge_before', true);
    IF cutoff IS NOT NULL AND cutoff <> '' AND OLD.at < cutoff::bigint THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = '42501';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_rows_append_only" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
-- Vendors read their tenant's audit log (feature code 14, contracts features.ts); existing vendor accounts get it.
UPDATE "accounts" SET "features" = "features" || '["14"]'::jsonb WHERE "level" = 'vendor' AND NOT ("features" ? '14') AND NOT ("features" ? '*');
