CREATE TABLE "device_access_tokens" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"token_last4" text NOT NULL,
	"issued_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_access_tokens" ADD CONSTRAINT "device_access_tokens_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_access_tokens_hash_uq" ON "device_access_tokens" USING btree ("token_hash");