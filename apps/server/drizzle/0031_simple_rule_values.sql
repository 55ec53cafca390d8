ALTER TABLE "project_simple_rules" ALTER COLUMN "threshold" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "project_simple_rules" ADD COLUMN "value" jsonb;
