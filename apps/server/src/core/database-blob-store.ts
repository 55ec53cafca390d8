/**
 * The blob store in the database (BLOB_STORE=database, the default with DATABASE_URL; docs/ARCHITECTURE.md "Blob
 * store"): every replica reads what any replica wrote, with no shared volume or other service, and the same code runs
 * on PGlite and PostgreSQL. A blob is a `blobs` row and `blob_chunks` rows of {@link BLOB_CHUNK_BYTES} (tables in
 * db/schema-blobs.ts).
 *
 * Writing inserts each chunk as it fills, one short statement at a time, and marks the blob complete at commit —
 * not one transaction held across the upload: a slow client would hold a pooled connection (and on PGlite the only
 * one, stalling every other query) for minutes, and PostgreSQL ends a transaction idle for
 * `idle_in_transaction_session_timeout` (30 s). Readers see only complete blobs, so the effect is the directory
 * store's temporary file and rename: a reader never sees half a blob; an aborted write is deleted; a write left by a
 * process that died is deleted by {@link TBlobStore.sweepTemporary}. Reading fetches one chunk at a time as the
 * consumer takes them (a range only the chunks it covers, cut by `substring` in the database), so a blob of any size
 * takes about two chunks of memory.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { rowsOf, type Db } from '../db/client.js';
import { blobChunks, blobs } from '../db/schema.js';
import { assertBlobKey, assertBlobRange, missingBlob, type TBlobStore, type TBlobWriter } from './blob-store.js';

/**
 * Bytes per stored chunk: 1 MiB, so a 200 MB model is ~200 rows (one insert each) and a read holds about two chunks.
 * Each blob records the size it was written with, so a change here never breaks existing blobs.
 */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/** What a read needs of a blob row. */
interface TStoredBlob {
  id: number;
  key: string;
  bytes: number;
  chunkBytes: number;
}

/** Bytes `start`…`end` (inclusive) of `blob`, one chunk per database read, as the consumer asks for them. */
async function* readChunks(db: Db, blob: TStoredBlob, start: number, end: number): AsyncGenerator<Buffer> {
  for (let seq = Math.floor(start / blob.chunkBytes); seq * blob.chunkBytes <= end; seq++) {
    const chunkStart = seq * blob.chunkBytes;
    const from = Math.max(start, chunkStart) - chunkStart;
    const length = Math.min(end, chunkStart + blob.chunkBytes - 1) - chunkStart - from + 1;
    const [row] = rowsOf<{ data: Uint8Array }>(
      await db.execute(
        sql`select substring(data from ${from + 1}::int for ${length}::int) as data from blob_chunks where blob_id = ${blob.id} and seq = ${seq}`,
      ),
    );
    // A blob removed while it is read loses its chunks: the stream fails rather than ending short.
    if (!row) throw new Error(`blob ${JSON.stringify(blob.key)} lost chunk ${seq} while it was read`);
    yield Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  }
}

/** A writer of blob row `id`: buffers up to a chunk, inserts each full chunk (the last one at the end) before taking more. */
function chunkWriter(db: Db, key: string, id: number, chunkBytes: number): TBlobWriter {
  let seq = 0;
  let written = 0;
  let held: Buffer[] = [];
  let heldBytes = 0;
  const put = async (data: Buffer) => {
    await db.insert(blobChunks).values({ blobId: id, seq, data });
    seq += 1;
    written += data.length;
    await db.update(blobs).set({ updatedAt: Date.now() }).where(eq(blobs.id, id));
  };
  const flush = async (last: boolean) => {
    if (heldBytes < chunkBytes && !(last && heldBytes > 0)) return;
    const buffer = Buffer.concat(held, heldBytes);
    let at = 0;
    for (; buffer.length - at >= chunkBytes; at += chunkBytes) await put(buffer.subarray(at, at + chunkBytes));
    if (last && at < buffer.length) {
      await put(buffer.subarray(at));
      at = buffer.length;
    }
    held = at < buffer.length ? [buffer.subarray(at)] : [];
    heldBytes = buffer.length - at;
  };
  const stream = new Writable({
    highWaterMark: chunkBytes,
    write(chunk: Buffer, _encoding, callback) {
      held.push(chunk);
      heldBytes += chunk.length;
      flush(false).then(() => callback(), callback);
    },
    final(callback) {
      flush(true).then(() => callback(), callback);
    },
  });
  return {
    stream,
    async commit() {
      if (!stream.writableFinished) await finished(stream);
      await db.transaction(async (tx) => {
        await tx.delete(blobs).where(and(eq(blobs.key, key), eq(blobs.complete, true)));
        const done = await tx
          .update(blobs)
          .set({ complete: true, bytes: written, updatedAt: Date.now() })
          .where(and(eq(blobs.id, id), eq(blobs.complete, false)))
          .returning({ id: blobs.id });
        if (done.length === 0) throw new Error(`the blob ${JSON.stringify(key)} being written was removed (swept or aborted)`);
      });
      return written;
    },
    async abort() {
      // A chunk insert still in flight fails on the foreign key once the row is gone; nothing is left behind.
      stream.on('error', () => undefined);
      stream.destroy();
      await db
        .delete(blobs)
        .where(and(eq(blobs.id, id), eq(blobs.complete, false)))
        .catch(() => undefined);
    },
  };
}

/**
 * A blob store in the tables `blobs` and `blob_chunks` of `db` (PGlite or PostgreSQL). `chunkBytes` (default
 * {@link BLOB_CHUNK_BYTES}) is the chunk size of blobs written from now on; tests make it small.
 */
export function databaseBlobStore(db: Db, opts: { chunkBytes?: number } = {}): TBlobStore {
  const chunkBytes = opts.chunkBytes ?? BLOB_CHUNK_BYTES;
  return {
    async writer(key) {
      assertBlobKey(key);
      const [row] = await db.insert(blobs).values({ key, chunkBytes }).returning({ id: blobs.id });
      return chunkWriter(db, key, row.id, chunkBytes);
    },
    async read(key, range) {
      assertBlobKey(key);
      const [blob] = await db
        .select({ id: blobs.id, key: blobs.key, bytes: blobs.bytes, chunkBytes: blobs.chunkBytes })
        .from(blobs)
        .where(and(eq(blobs.key, key), eq(blobs.complete, true)));
      if (!blob) throw missingBlob(key);
      assertBlobRange(range, blob.bytes);
      const chunks = readChunks(db, blob, range?.start ?? 0, range?.end ?? blob.bytes - 1);
      return { stream: Readable.from(chunks, { objectMode: false, highWaterMark: blob.chunkBytes }), bytes: blob.bytes };
    },
    async remove(key) {
      assertBlobKey(key);
      await db.delete(blobs).where(and(eq(blobs.key, key), eq(blobs.complete, true)));
    },
    async sweepTemporary(olderThanMs) {
      const gone = await db
        .delete(blobs)
        .where(and(eq(blobs.complete, false), lt(blobs.updatedAt, Date.now() - olderThanMs)))
        .returning({ id: blobs.id });
      return gone.length;
    },
  };
}
