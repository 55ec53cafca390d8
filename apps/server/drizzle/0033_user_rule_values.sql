ALTER TABLE "device_user_rules" ALTER COLUMN "threshold" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "device_user_rules" ADD COLUMN "value" jsonb;