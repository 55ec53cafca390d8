/**
 * The blob store (docs/ARCHITECTURE.md "Blob store"): files the server keeps and serves later (download packages, AI
 * model revisions), by key, whole or by byte range. Two implementations behave alike (blob-store.int.test.ts holds
 * both to one suite), chosen by BLOB_STORE (README "Configuration"):
 * - {@link directoryBlobStore} (embedded default): a directory under DATA_DIR; a blob is written to a temporary name
 *   and renamed into place when complete, so a reader never sees half a file and a crash leaves only a temporary file
 *   that {@link TBlobStore.sweepTemporary} removes;
 * - `databaseBlobStore` (database-blob-store.ts; the default with DATABASE_URL): chunks in PostgreSQL, which every
 *   replica shares.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';

/** A blob being written: its stream, then `commit` (answers the size in bytes) or `abort`. */
export interface TBlobWriter {
  stream: Writable;
  /** Waits for the stream to finish and puts the blob in place; answers its size in bytes. */
  commit(): Promise<number>;
  /** Drops what was written. Never throws. */
  abort(): Promise<void>;
}

/** A byte range of a blob: offsets from 0, both inclusive (as in HTTP `Range: bytes=start-end`). */
export interface TBlobRange {
  start: number;
  end: number;
}

/** A blob being read: its bytes (all of them, or the range asked for) and the size of the whole blob in bytes. */
export interface TBlobRead {
  stream: Readable;
  /** The whole blob's size in bytes, whether or not a range was asked for. */
  bytes: number;
}

/** Stores and serves blobs by key (`[a-z0-9/_.-]`, no `..`). */
export interface TBlobStore {
  /** Starts writing blob `key`; it replaces a blob of the same key only when committed. */
  writer(key: string): Promise<TBlobWriter>;
  /**
   * The blob's bytes, or only those of `range` (the stream then holds `end − start + 1` bytes).
   * @throws Error with code ENOENT when it does not exist; {@link BlobRangeError} (code ERANGE) when `range` is not
   *   inside the blob (`start > end` or `end ≥ bytes`).
   */
  read(key: string, range?: TBlobRange): Promise<TBlobRead>;
  /** Removes the blob; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Removes temporary files older than `olderThanMs` (left by a process that died mid-write). */
  sweepTemporary(olderThanMs: number): Promise<number>;
}

/** Thrown by {@link TBlobStore.read} for a range outside the blob; `code` is `ERANGE`. */
export class BlobRangeError extends RangeError {
  readonly code = 'ERANGE';
  constructor(range: TBlobRange, bytes: number) {
    super(`bytes ${range.start}-${range.end} are not inside a blob of ${bytes} bytes`);
  }
}

/**
 * Checks `range` against a blob of `bytes` bytes.
 * @throws BlobRangeError when it is not inside (or not whole numbers).
 */
export function assertBlobRange(range: TBlobRange | undefined, bytes: number): void {
  if (!range) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || start > end || end >= bytes) {
    throw new BlobRangeError(range, bytes);
  }
}

/** The error a read of a missing blob throws (code ENOENT, as the file system's). */
export function missingBlob(key: string): Error {
  return Object.assign(new Error(`no blob ${JSON.stringify(key)}`), { code: 'ENOENT' });
}

const KEY = /^[a-z0-9_-][a-z0-9/_.-]*$/i;

/**
 * Checks a blob key (`[a-z0-9/_.-]`, not starting with `/` or `.`, no `..`).
 * @throws Error for a key outside that alphabet.
 */
export function assertBlobKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`bad blob key ${JSON.stringify(key)}`);
}
const TEMP_SUFFIX = '.partial';

/** A blob store in directory `root` (created on first write). */
export function directoryBlobStore(root: string): TBlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    assertBlobKey(key);
    const path = resolve(base, key);
    if (!path.startsWith(base + sep)) throw new Error(`bad blob key ${JSON.stringify(key)}`);
    return path;
  };
  return {
    async writer(key) {
      const path = pathOf(key);
      const temp = `${path}.${process.pid}.${Date.now()}${TEMP_SUFFIX}`;
      await mkdir(dirname(path), { recursive: true });
      const stream = createWriteStream(temp);
      return {
        stream,
        async commit() {
          if (!stream.writableFinished) await finished(stream);
          await rename(temp, path);
          return (await stat(path)).size;
        },
        async abort() {
          stream.destroy();
          await rm(temp, { force: true }).catch(() => undefined);
        },
      };
    },
    async read(key, range) {
      // Size and bytes from one open file: a blob replaced meanwhile (renamed over) cannot mix the two.
      const file = await open(pathOf(key));
      try {
        const { size } = await file.stat();
        assertBlobRange(range, size);
        return { stream: file.createReadStream(range ? { start: range.start, end: range.end } : {}), bytes: size };
      } catch (err) {
        await file.close();
        throw err;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async sweepTemporary(olderThanMs) {
      let removed = 0;
      const cutoff = Date.now() - olderThanMs;
      const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (!e.isFile() || !e.name.endsWith(TEMP_SUFFIX)) continue;
        const path = join(e.parentPath, e.name);
        const info = await stat(path).catch(() => null);
        if (info && info.mtimeMs < cutoff) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
