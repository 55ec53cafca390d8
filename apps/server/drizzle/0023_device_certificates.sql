CREATE TABLE "device_certificates" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_certificates" ADD CONSTRAINT "device_certificates_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_certificates_fingerprint_uq" ON "device_certificates" USING btree ("fingerprint");
