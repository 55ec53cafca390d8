ALTER TABLE "devices" ADD COLUMN "is_gateway" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "gateway_id" integer;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "gateway_left_at" bigint;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "gateway_creates_devices" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_gateway_id_devices_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_gateway_idx" ON "devices" USING btree ("gateway_id");--> statement-breakpoint
CREATE INDEX "devices_project_name_idx" ON "devices" USING btree ("project_id","name");
