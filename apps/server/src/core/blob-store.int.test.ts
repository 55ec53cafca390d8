/**
 * Both blob stores held to one suite (docs/ARCHITECTURE.md "Blob store"): the directory store and the database store
 * (on PGlite, and on PostgreSQL when TEST_DB=postgres) write, read whole and by range, replace, remove, abort and sweep
 * alike. The database store runs with 1 KiB chunks so that ranges cross chunk edges.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB_KIND } from '../../test/helpers.js';
import type { Database } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { blobChunks, blobs } from '../db/schema.js';
import { BlobRangeError, directoryBlobStore, type TBlobStore } from './blob-store.js';
import { databaseBlobStore } from './database-blob-store.js';

const CHUNK = 1024;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Writes `data` to `key` in pieces of `piece` bytes and commits; answers the committed size. */
async function put(store: TBlobStore, key: string, data: Buffer, piece = 700): Promise<number> {
  const writer = await store.writer(key);
  const pieces = Array.from({ length: Math.ceil(data.length / piece) }, (_, i) => data.subarray(i * piece, (i + 1) * piece));
  await pipeline(Readable.from(pieces), writer.stream);
  return writer.commit();
}

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await runMigrations(database);
});
afterAll(async () => {
  await database?.close();
});

const stores: [string, () => TBlobStore][] = [
  ['directory', () => directoryBlobStore(mkdtempSync(join(tmpdir(), 'tessera-blob-test-')))],
  [`database (${TEST_DB_KIND})`, () => databaseBlobStore(database.db, { chunkBytes: CHUNK })],
];

describe.each(stores)('blob store: %s', (_name, make) => {
  let store: TBlobStore;
  beforeAll(() => {
    store = make();
  });

  it('reads back what was written, whole, with its size', async () => {
    const data = randomBytes(5 * CHUNK + 123);
    expect(await put(store, 'a/whole.bin', data)).toBe(data.length);
    const read = await store.read('a/whole.bin');
    expect(read.bytes).toBe(data.length);
    expect((await bytesOf(read.stream)).equals(data)).toBe(true);
  });

  it('reads any range, inside one chunk or across several, ends inclusive', async () => {
    const data = randomBytes(4 * CHUNK + 10);
    await put(store, 'a/ranges.bin', data);
    for (const [start, end] of [
      [0, 0],
      [5, 99],
      [CHUNK - 1, CHUNK],
      [CHUNK, 2 * CHUNK - 1],
      [100, 3 * CHUNK + 7],
      [4 * CHUNK, 4 * CHUNK + 9],
      [0, data.length - 1],
    ]) {
      const read = await store.read('a/ranges.bin', { start, end });
      expect(read.bytes).toBe(data.length);
      expect((await bytesOf(read.stream)).equals(data.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('refuses a range outside the blob, and a missing blob with ENOENT', async () => {
    await put(store, 'a/small.bin', Buffer.from('hello'));
    await expect(store.read('a/small.bin', { start: 5, end: 5 })).rejects.toBeInstanceOf(BlobRangeError);
    await expect(store.read('a/small.bin', { start: 3, end: 2 })).rejects.toMatchObject({ code: 'ERANGE' });
    await expect(store.read('a/missing.bin')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.writer('../escape')).rejects.toThrow(/bad blob key/);
  });

  it('keeps an empty blob', async () => {
    expect(await put(store, 'a/empty.bin', Buffer.alloc(0))).toBe(0);
    const read = await store.read('a/empty.bin');
    expect(read.bytes).toBe(0);
    expect((await bytesOf(read.stream)).length).toBe(0);
  });

  it('replaces a blob only when the new one is committed; readers never see a blob being written', async () => {
    await put(store, 'a/replace.bin', Buffer.from('old'));
    const writer = await store.writer('a/replace.bin');
    writer.stream.write(randomBytes(3 * CHUNK));
    expect((await bytesOf((await store.read('a/replace.bin')).stream)).toString()).toBe('old');
    writer.stream.end(Buffer.from('!'));
    expect(await writer.commit()).toBe(3 * CHUNK + 1);
    const replaced = await store.read('a/replace.bin');
    // A read stream not consumed must be closed: Node 26 ends the process over a file handle left to the collector.
    replaced.stream.destroy();
    expect(replaced.bytes).toBe(3 * CHUNK + 1);
  });

  it('leaves nothing of an aborted write, and removes a blob (a missing one is no error)', async () => {
    const writer = await store.writer('a/aborted.bin');
    writer.stream.write(randomBytes(2 * CHUNK + 1));
    await new Promise((r) => setTimeout(r, 20));
    await writer.abort();
    await expect(store.read('a/aborted.bin')).rejects.toMatchObject({ code: 'ENOENT' });

    await put(store, 'a/removed.bin', randomBytes(CHUNK * 2));
    await store.remove('a/removed.bin');
    await expect(store.read('a/removed.bin')).rejects.toMatchObject({ code: 'ENOENT' });
    await store.remove('a/removed.bin');
  });

  it('streams a large blob with the same digest it was written with', async () => {
    const data = randomBytes(300 * CHUNK + 17);
    await put(store, 'a/large.bin', data, 64 * 1024);
    const digest = createHash('sha256');
    for await (const part of (await store.read('a/large.bin')).stream) digest.update(part as Buffer);
    expect(digest.digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });
});

describe(`database blob store tables (${TEST_DB_KIND})`, () => {
  it('hold complete blobs only once committed, drop an aborted one at once and a dead write on the sweep', async () => {
    const store = databaseBlobStore(database.db, { chunkBytes: CHUNK });
    const data = randomBytes(3 * CHUNK + 1);
    await put(store, 't/kept.bin', data);
    const [kept] = await database.db.select().from(blobs).where(eq(blobs.key, 't/kept.bin'));
    expect(kept).toMatchObject({ complete: true, bytes: data.length, chunkBytes: CHUNK });
    const chunks = await database.db.select({ seq: blobChunks.seq }).from(blobChunks).where(eq(blobChunks.blobId, kept.id));
    expect(chunks.map((c) => c.seq).sort()).toEqual([0, 1, 2, 3]);

    const aborted = await store.writer('t/aborted.bin');
    aborted.stream.write(randomBytes(2 * CHUNK));
    await new Promise((r) => setTimeout(r, 20));
    await aborted.abort();
    expect(await database.db.select().from(blobs).where(eq(blobs.key, 't/aborted.bin'))).toEqual([]);

    // A process that died mid-write leaves an incomplete row: the sweep takes it once it is old enough, with its chunks.
    const dead = await store.writer('t/dead.bin');
    dead.stream.write(randomBytes(2 * CHUNK));
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.sweepTemporary(60_000)).toBe(0);
    await database.db.execute(sql`update blobs set updated_at = updated_at - 120000 where key = 't/dead.bin'`);
    expect(await store.sweepTemporary(60_000)).toBe(1);
    const orphans = await database.db.execute(
      sql`select count(*)::int as n from blob_chunks c left join blobs b on b.id = c.blob_id where b.id is null`,
    );
    expect((orphans as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
    // Its writer, were it still alive, cannot commit what the sweep took.
    dead.stream.end();
    await expect(dead.commit()).rejects.toThrow();
  });
});

describe('directory blob store files', () => {
  it('sweeps temporary files of dead writes, not complete blobs', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tessera-blob-sweep-'));
    const store = directoryBlobStore(root);
    await put(store, 'd/kept.bin', randomBytes(10));
    const dead = await store.writer('d/dead.bin');
    dead.stream.write(randomBytes(10));
    await new Promise((r) => setTimeout(r, 20));
    const temp = readdirSync(join(root, 'd')).find((f) => f.endsWith('.partial')) as string;
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(root, 'd', temp), old, old);
    expect(await store.sweepTemporary(60_000)).toBe(1);
    expect(readdirSync(join(root, 'd'))).toEqual(['kept.bin']);
  });
});
