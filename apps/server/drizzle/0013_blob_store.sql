CREATE TABLE "blob_chunks" (
	"blob_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "blob_chunks_blob_id_seq_pk" PRIMARY KEY("blob_id","seq")
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"chunk_bytes" integer NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	"updated_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blob_chunks" ADD CONSTRAINT "blob_chunks_blob_id_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "public"."blobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blobs_key_complete_uq" ON "blobs" USING btree ("key") WHERE "blobs"."complete";--> statement-breakpoint
CREATE INDEX "blobs_writing_idx" ON "blobs" USING btree ("updated_at") WHERE not "blobs"."complete";--> statement-breakpoint
-- Chunks are mostly incompressible (models, zips): store them out of line uncompressed, which also lets
-- substring() (ranged reads) fetch only the TOAST slices it needs.
ALTER TABLE "blob_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;