ALTER TABLE "lorawan_integrations" ADD COLUMN "transport" text DEFAULT 'webhook' NOT NULL;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_url" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_username" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_password_sealed" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_password_hint" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_application_id" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_state" text;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_state_at" bigint;--> statement-breakpoint
ALTER TABLE "lorawan_integrations" ADD COLUMN "mqtt_error" text;