import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * File storage (ARCHITECTURE: 'file storage, disk dir by default; S3-compatible for scale').
 *
 * The adapter owns the names: `put` generates the key (`yyyy/mm/<uuid>`) and never takes one from
 * the caller, so a client's file name can never become a path. Stored objects are immutable: there
 * is no overwrite, so several database rows may reference the same key (a copied attachment,
 * clone, file transfer) and a "copy" needs no second object. Because of that, deleting a record
 * never deletes its object; `delete` is for objects no row references (a failed upload).
 *
 * Platform code: it knows no module. Modules receive it through ModuleOptions.storage.
 */
export interface Storage {
  /**
   * Stores a stream under a new server-generated key, hashing (SHA-256) and counting while it
   * flows. With `maxBytes`, more bytes than that throw StorageLimitError and nothing is left behind.
   */
  put(source: StorageSource, options?: PutOptions): Promise<StoredObject>;
  /** The object's bytes, or null when there is no such object. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes an object (no error when it is already gone). Only for objects nothing references. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /**
   * The keys of objects stored before `before`, for the sweep of unreferenced objects; also drops
   * temporary files of puts a crash interrupted before then.
   */
  keysStoredBefore(before: Date): AsyncIterable<string>;
}

export type StorageSource = Readable | AsyncIterable<Uint8Array> | Uint8Array;

export interface PutOptions {
  /** The most bytes accepted; one more and the put fails with StorageLimitError. */
  maxBytes?: number;
}

export interface StoredObject {
  key: string;
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

export interface StoredFile {
  stream: Readable;
  size: number;
}

/** The source had more bytes than `maxBytes`: the partial object has been removed. */
export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

/** Keys the adapters generate: `yyyy/mm/<uuid v4>`. Anything else is refused before touching a file. */
const KEY_PATTERN = /^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isStorageKey = (key: string): boolean => KEY_PATTERN.test(key);

/** A new key for an object stored now: the month folder keeps directories small. */
export function newStorageKey(now: Date = new Date()): string {
  const year = String(now.getUTCFullYear()).padStart(4, '0');
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${year}/${month}/${randomUUID()}`;
}

/** Flushes a folder's entries (a rename into it, a new subfolder) to the disk. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The disk adapter: objects are files under `root` (STORAGE_DIR, by default DATA_DIR/files).
 * A put writes `root/tmp/<uuid>.part`, fsyncs it and renames it into place, so a reader never sees
 * half a file and a crash leaves only a temporary file behind.
 */
export function createDiskStorage(root: string): Storage {
  const base = path.resolve(root);
  const tmpDir = path.join(base, 'tmp');

  const fileOf = (key: string): string => {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return path.join(base, ...key.split('/'));
  };

  return {
    async put(source, options = {}) {
      const { maxBytes } = options;
      await mkdir(tmpDir, { recursive: true });
      const key = newStorageKey();
      const tmpFile = path.join(tmpDir, `${randomUUID()}.part`);
      const hash = createHash('sha256');
      let size = 0;
      const handle = await open(tmpFile, 'wx', 0o640);
      let closed = false;
      try {
        for await (const chunk of chunksOf(source)) {
          size += chunk.byteLength;
          if (maxBytes !== undefined && size > maxBytes) throw new StorageLimitError(maxBytes);
          hash.update(chunk);
          await handle.write(chunk);
        }
        await handle.sync();
        await handle.close();
        closed = true;
        const target = fileOf(key);
        const created = await mkdir(path.dirname(target), { recursive: true });
        await rename(tmpFile, target);
        // The rename (and a new month folder) must reach the disk before the caller commits the row
        // that names the file: after a power cut the row never points at a file that is gone.
        const stop = created ? path.dirname(created) : path.dirname(target);
        for (let folder = path.dirname(target); ; folder = path.dirname(folder)) {
          await syncFolder(folder);
          if (folder === stop || folder === base) break;
        }
        return { key, size, sha256: hash.digest('hex') };
      } catch (error) {
        if (!closed) await handle.close().catch(() => undefined);
        await rm(tmpFile, { force: true });
        throw error;
      }
    },

    async get(key) {
      const file = fileOf(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { stream: createReadStream(file), size: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },

    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        return (await stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },

    async *keysStoredBefore(before) {
      for (const part of await entriesOf(tmpDir)) {
        const file = path.join(tmpDir, part);
        const info = await stat(file).catch(() => null);
        if (info && info.mtime < before) await rm(file, { force: true });
      }
      for (const year of await entriesOf(base)) {
        if (!/^\d{4}$/.test(year)) continue;
        for (const month of await entriesOf(path.join(base, year))) {
          for (const name of await entriesOf(path.join(base, year, month))) {
            const key = `${year}/${month}/${name}`;
            if (!isStorageKey(key)) continue;
            const info = await stat(fileOf(key)).catch(() => null);
            if (info?.isFile() && info.mtime < before) yield key;
          }
        }
      }
    },
  };
}

/** The names in a folder, or none when it does not exist. */
async function entriesOf(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The bytes of a source as chunks, whatever its kind. */
export async function* chunksOf(source: StorageSource): AsyncIterable<Uint8Array> {
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  for await (const chunk of source) {
    yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  }
}
