/**
 * The blob store (docs/ARCHITECTURE.md "Blob store"): files the server produces and serves later (download
 * packages), by key. Embedded and single-host deployments keep them in a directory under DATA_DIR; a blob is written
 * to a temporary name and renamed into place when complete, so a reader never sees half a file and a crash leaves
 * only a temporary file that {@link TBlobStore.sweepTemporary} removes.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
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

/** Stores and serves blobs by key (`[a-z0-9/_.-]`, no `..`). */
export interface TBlobStore {
  writer(key: string): Promise<TBlobWriter>;
  /** The blob's bytes. @throws Error with code ENOENT when it does not exist. */
  read(key: string): Promise<{ stream: Readable; bytes: number }>;
  /** Removes the blob; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Removes temporary files older than `olderThanMs` (left by a process that died mid-write). */
  sweepTemporary(olderThanMs: number): Promise<number>;
}

const KEY = /^[a-z0-9_-][a-z0-9/_.-]*$/i;
const TEMP_SUFFIX = '.partial';

/** A blob store in directory `root` (created on first write). */
export function directoryBlobStore(root: string): TBlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!KEY.test(key) || key.includes('..')) throw new Error(`bad blob key ${JSON.stringify(key)}`);
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
    async read(key) {
      const path = pathOf(key);
      const { size } = await stat(path);
      return { stream: createReadStream(path), bytes: size };
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
