import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { isStorageKey, type Storage, StorageLimitError } from './storage.ts';
import { createS3Storage } from './storage-s3.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-s3-data-'));
let s3: TestS3Server;
let storage: Storage;
/** A second installation sharing the bucket under its own prefix. */
let neighbour: Storage;

beforeAll(async () => {
  s3 = await startS3Server();
  const config = loadConfig({ DATA_DIR: dataDir, ...s3.env });
  if (!config.s3) throw new Error('S3_BUCKET did not select the S3 adapter');
  storage = createS3Storage(config.s3);
  neighbour = createS3Storage({ ...config.s3, prefix: 'deya-b' });
});
afterAll(async () => {
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('S3-compatible storage (against a local s3rver)', () => {
  it('stores a stream under a server-generated key with its size and SHA-256, and gives it back', async () => {
    const bytes = Buffer.from('Αίτηση σύνδεσης ύδρευσης\n'.repeat(50_000));
    const stored = await storage.put(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(isStorageKey(stored.key)).toBe(true);
    expect(stored.size).toBe(bytes.length);
    expect(stored.sha256).toBe(sha256(bytes));
    expect(await storage.exists(stored.key)).toBe(true);
    const file = await storage.get(stored.key);
    expect(file?.size).toBe(bytes.length);
    expect(Buffer.compare(await buffer(file?.stream ?? Readable.from([])), bytes)).toBe(0);
  });

  it('refuses more than maxBytes while streaming and stores nothing', async () => {
    const before = await keys(storage);
    const big = Readable.from([Buffer.alloc(600, 1), Buffer.alloc(600, 2)]);
    await expect(storage.put(big, { maxBytes: 1000 })).rejects.toBeInstanceOf(StorageLimitError);
    expect(await keys(storage)).toEqual(before);
    expect((await storage.put(Buffer.alloc(1000, 3), { maxBytes: 1000 })).size).toBe(1000);
  });

  it('answers null and false for a missing object, deletes idempotently, and refuses foreign keys', async () => {
    const stored = await storage.put(Buffer.from('προσωρινό'));
    await storage.delete(stored.key);
    await storage.delete(stored.key);
    expect(await storage.get(stored.key)).toBeNull();
    expect(await storage.exists(stored.key)).toBe(false);
    expect(await storage.exists('../../etc/passwd')).toBe(false);
    await expect(storage.get('../../etc/passwd')).rejects.toThrow(/not a storage key/);
  });

  it('lists the keys stored before a time for the sweep, each installation its own prefix only', async () => {
    const mine = await storage.put(Buffer.from('ένα'));
    const theirs = await neighbour.put(Buffer.from('δύο'));
    const later = new Date(Date.now() + 60_000);
    const listed = await keys(storage, later);
    expect(listed).toContain(mine.key);
    expect(listed).not.toContain(theirs.key);
    expect(await keys(neighbour, later)).toEqual([theirs.key]);
    expect(await keys(storage, new Date(Date.now() - 60_000))).toEqual([]);
    expect(await neighbour.exists(mine.key)).toBe(false);
  });
});

async function keys(of: Storage, before = new Date(Date.now() + 60_000)): Promise<string[]> {
  const found: string[] = [];
  for await (const key of of.keysStoredBefore(before)) found.push(key);
  return found.sort();
}
