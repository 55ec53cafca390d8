CREATE TABLE "device_attributes" (
	"device_id" integer NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "device_attributes_device_id_scope_key_pk" PRIMARY KEY("device_id","scope","key"),
	CONSTRAINT "device_attributes_scope" CHECK ("device_attributes"."scope" in ('client', 'shared', 'server'))
);
--> statement-breakpoint
ALTER TABLE "device_attributes" ADD CONSTRAINT "device_attributes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_attributes_updated_idx" ON "device_attributes" USING btree ("device_id","scope","updated_at");