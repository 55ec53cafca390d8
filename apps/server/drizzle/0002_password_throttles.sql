CREATE TABLE "password_throttles" (
	"email" text NOT NULL,
	"purpose" text NOT NULL,
	"client_ip" text NOT NULL,
	"failures" integer NOT NULL,
	"blocked_until" bigint,
	"last_failure_at" bigint NOT NULL,
	CONSTRAINT "password_throttles_email_purpose_client_ip_pk" PRIMARY KEY("email","purpose","client_ip")
);
--> statement-breakpoint
CREATE INDEX "password_throttles_last_idx" ON "password_throttles" USING btree ("last_failure_at");