import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { waterImportFiles } from '../../modules/water/import.schema.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { createDiskStorage, type Storage } from '../storage.ts';
import { createS3Storage } from '../storage-s3.ts';
import { sweepStorage } from '../storage-sweep.ts';
import { dropImportFile, keepImportFilesIn, readImportFile, storeImportFile } from './files.ts';

/**
 * Import files on the storage adapter (issue 21), on the disk folder and on an S3-compatible store
 * (a local s3rver): the row holds the key and no bytes, the job reads the file back, the row goes
 * with the job and the sweep then removes the object; a file kept in the database before still reads.
 */
let t: TestApp;
let s3: TestS3Server;
let companyId: number;
let disk: Storage;
let bucket: Storage;

beforeAll(async () => {
  t = await startTestApp();
  s3 = await startS3Server();
  const { s3: options } = loadConfig({ DATA_DIR: t.config.dataDir, ...s3.env });
  if (!options) throw new Error('S3_BUCKET did not select the S3 adapter');
  disk = createDiskStorage(t.config.storageDir);
  bucket = createS3Storage(options);
  companyId = (await rows<{ id: number }>(sql`SELECT min(id) AS id FROM companies`))[0]?.id ?? 0;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const rows = async <R>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: R[] }).rows;

describe.each([
  ['the disk folder', () => disk],
  ['an S3-compatible store', () => bucket],
])('import files on %s', (_, storageOf) => {
  it('keeps the bytes in storage, reads them for the job, and the sweep removes them once the job ended', async () => {
    const storage = storageOf();
    const { db } = t.database;
    keepImportFilesIn(db, storage);
    const content = Buffer.from('κωδικός;ιδιοκτήτης\n01-002-901;Καραγιάννη Ελένη\n'.repeat(2000));
    const id = await db.transaction((tx) =>
      storeImportFile(tx, storage, waterImportFiles, companyId, content),
    );
    const [row] = await rows<{ key: string | null; content: Uint8Array | null }>(
      sql`SELECT storage_key AS key, content FROM water_import_files WHERE id = ${id}`,
    );
    expect(row?.content).toBeNull();
    expect(row?.key && (await storage.exists(row.key))).toBe(true);
    expect(Buffer.compare((await readImportFile(db, waterImportFiles, id)) ?? Buffer.alloc(0), content)).toBe(
      0,
    );

    const later = new Date(Date.now() + 60_000);
    const references = [{ table: 'water_import_files', column: 'storage_key' }];
    // Named by its row while the job runs: the sweep keeps it.
    await sweepStorage(db, storage, references, later);
    expect(await storage.exists(row?.key ?? '')).toBe(true);
    await db.transaction((tx) => dropImportFile(tx, waterImportFiles, id));
    expect(await readImportFile(db, waterImportFiles, id)).toBeNull();
    await sweepStorage(db, storage, references, later);
    expect(await storage.exists(row?.key ?? '')).toBe(false);
  });

  it('a file stored before the move, bytes in its row, still reads', async () => {
    keepImportFilesIn(t.database.db, storageOf());
    const content = Buffer.from('αρχείο πριν από τη μετάβαση');
    const [row] = await rows<{ id: number }>(
      sql`INSERT INTO water_import_files (company_id, content) VALUES (${companyId}, ${content}) RETURNING id`,
    );
    expect((await readImportFile(t.database.db, waterImportFiles, row?.id ?? 0))?.toString()).toBe(
      content.toString(),
    );
    // A row must hold its file one way or the other.
    await expect(
      t.database.db.execute(sql`INSERT INTO water_import_files (company_id) VALUES (${companyId})`),
    ).rejects.toThrow();
  });
});
