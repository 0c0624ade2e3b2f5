import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskStorage, isStorageKey, StorageLimitError } from './storage.ts';

const root = mkdtempSync(path.join(tmpdir(), 'protocol-storage-'));
const storage = createDiskStorage(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file under the root (temporary files included). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) =>
    statSync(path.join(dir, name)).isFile(),
  );
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('disk storage', () => {
  it('stores a stream under a server-generated key with its size and SHA-256, and gives it back', async () => {
    const bytes = Buffer.from('Αίτηση σύνδεσης ύδρευσης\n'.repeat(5000));
    const stored = await storage.put(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(stored.key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
    expect(isStorageKey(stored.key)).toBe(true);
    expect(stored.size).toBe(bytes.length);
    expect(stored.sha256).toBe(sha256(bytes));
    expect(await storage.exists(stored.key)).toBe(true);
    const file = await storage.get(stored.key);
    expect(file?.size).toBe(bytes.length);
    expect(Buffer.compare(await buffer(file?.stream ?? Readable.from([])), bytes)).toBe(0);
    // The file sits under root/yyyy/mm/<uuid>; the temporary folder is empty again.
    expect(statSync(path.join(root, ...stored.key.split('/'))).size).toBe(bytes.length);
    expect(readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });

  it('takes buffers and async iterables, and never reuses a key', async () => {
    const [a, b] = await Promise.all([
      storage.put(Buffer.from('one')),
      storage.put(
        (async function* () {
          yield new TextEncoder().encode('tw');
          yield new TextEncoder().encode('o');
        })(),
      ),
    ]);
    expect(a.key).not.toBe(b.key);
    expect(a.sha256).toBe(sha256(Buffer.from('one')));
    expect(b.size).toBe(3);
  });

  it('refuses more than maxBytes while streaming and leaves nothing behind', async () => {
    const before = filesUnder(root).length;
    const big = Readable.from([Buffer.alloc(600, 1), Buffer.alloc(600, 2)]);
    await expect(storage.put(big, { maxBytes: 1000 })).rejects.toBeInstanceOf(StorageLimitError);
    expect(filesUnder(root).length).toBe(before);
    // Exactly the limit is fine.
    const exact = await storage.put(Buffer.alloc(1000), { maxBytes: 1000 });
    expect(exact.size).toBe(1000);
  });

  it('removes the temporary file when the source fails', async () => {
    const before = filesUnder(root).length;
    const failing = (async function* () {
      yield Buffer.from('half');
      throw new Error('client went away');
    })();
    await expect(storage.put(failing)).rejects.toThrow('client went away');
    expect(filesUnder(root).length).toBe(before);
  });

  it('deletes, and answers null/false for what is not there', async () => {
    const stored = await storage.put(Buffer.from('x'));
    await storage.delete(stored.key);
    expect(await storage.exists(stored.key)).toBe(false);
    expect(await storage.get(stored.key)).toBeNull();
    await storage.delete(stored.key);
  });

  it('accepts only its own key shape: no path can be smuggled in', async () => {
    for (const key of ['../../etc/passwd', '/etc/passwd', '2026/01/../../x', '2026/01/Αίτηση.pdf', '']) {
      expect(isStorageKey(key)).toBe(false);
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.get(key)).rejects.toThrow('not a storage key');
      await expect(storage.delete(key)).rejects.toThrow('not a storage key');
    }
  });
});
