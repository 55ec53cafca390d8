/**
 * The database blob store (core/database-blob-store.ts; docs/ARCHITECTURE.md "Blob store"): a blob is a row of
 * `blobs` and its bytes are rows of `blob_chunks`, each `chunk_bytes` long but the last. A blob being written is
 * `complete = false` (its own row, invisible to readers) until the writer commits, like the directory store's
 * temporary file and rename.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, updatedAt } from './columns.js';

/**
 * A blob: its key, whether it is complete (readable), its size in bytes and the size of its chunks. At most one
 * complete blob per key; any number being written. `updated_at` moves with every chunk written, so the sweep tells a
 * write left by a dead process from one in progress.
 */
export const blobs = pgTable(
  'blobs',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    complete: boolean('complete').notNull().default(false),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    chunkBytes: integer('chunk_bytes').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('blobs_key_complete_uq').on(t.key).where(sql`${t.complete}`),
    index('blobs_writing_idx').on(t.updatedAt).where(sql`not ${t.complete}`),
  ],
);

/** Chunk `seq` (from 0) of a blob: bytes `seq × chunk_bytes` onwards. */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    blobId: integer('blob_id')
      .notNull()
      .references(() => blobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.blobId, t.seq] })],
);
