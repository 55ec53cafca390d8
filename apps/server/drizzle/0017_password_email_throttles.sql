CREATE TABLE "password_email_throttles" (
	"email" text NOT NULL,
	"purpose" text NOT NULL,
	"failures" integer NOT NULL,
	"blocked_until" bigint,
	"last_failure_at" bigint NOT NULL,
	CONSTRAINT "password_email_throttles_email_purpose_pk" PRIMARY KEY("email","purpose")
);
--> statement-breakpoint
CREATE INDEX "password_email_throttles_last_idx" ON "password_email_throttles" USING btree ("last_failure_at");--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "failed_logins";