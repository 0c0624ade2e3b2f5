import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { createDiskStorage } from './storage.ts';
import { sweepStorage } from './storage-sweep.ts';

/**
 * The sweep removes old objects no registered column names (here a test table, beside the
 * attachments the app registers); everything else stays.
 */
let t: TestApp;
const root = mkdtempSync(path.join(tmpdir(), 'protocol-sweep-'));
const storage = createDiskStorage(root);
const TWO_DAYS_AGO = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
const fileOf = (key: string) => path.join(root, ...key.split('/'));
const columns = [
  { table: 'document_attachments', column: 'storage_key' },
  { table: 'sweep_test_files', column: 'key' },
];
const age = (file: string) => utimesSync(file, TWO_DAYS_AGO, TWO_DAYS_AGO);

beforeAll(async () => {
  t = await startTestApp();
  await t.database.db.execute(sql`CREATE TABLE sweep_test_files (key text)`);
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the storage sweep', () => {
  it('removes old unreferenced objects and interrupted temporary files; keeps referenced and new ones', async () => {
    const referenced = await storage.put(Buffer.from('referenced'));
    const orphans = await Promise.all([1, 2, 3].map((n) => storage.put(Buffer.from(`orphan ${n}`))));
    const fresh = await storage.put(Buffer.from('uploaded a moment ago, its row not yet written'));
    for (const object of [referenced, ...orphans]) age(fileOf(object.key));
    await t.database.db.execute(sql`INSERT INTO sweep_test_files (key) VALUES (${referenced.key})`);
    mkdirSync(path.join(root, 'tmp'), { recursive: true });
    const part = path.join(root, 'tmp', 'interrupted.part');
    writeFileSync(part, 'half a file');
    age(part);

    expect(await sweepStorage(t.database.db, storage, columns)).toBe(3);
    for (const orphan of orphans) expect(await storage.exists(orphan.key)).toBe(false);
    expect(await storage.exists(referenced.key)).toBe(true);
    expect(await storage.exists(fresh.key)).toBe(true);
    expect(existsSync(part)).toBe(false);
    // Nothing left to remove.
    expect(await sweepStorage(t.database.db, storage, columns)).toBe(0);
  });
});
