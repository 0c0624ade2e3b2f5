import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '../../../platform/storage-s3.ts';
import { sweepStorage } from '../../../platform/storage-sweep.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.ts';
import { documentTypes } from '../protocol.schema.ts';
import { multipart } from '../protocol-fixtures.ts';

/**
 * With S3_BUCKET set, uploaded files live in the S3-compatible store (a local s3rver here), not on
 * the disk: uploaded through the API, downloaded back byte for byte, and swept there when orphaned.
 */
let s3: TestS3Server;
let t: TestApp;
let writer: { authorization: string };
let documentId: number;

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestApp(s3.env);
  const admin = await t.login('admin', ADMIN_PASSWORD);
  const me = (
    await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
  ).json();
  const companyA: number = me.companies[0].id;
  const [manual] = await t.database.db
    .select({ id: documentTypes.id })
    .from(documentTypes)
    .where(and(eq(documentTypes.companyId, companyA), eq(documentTypes.autonr, false)));
  writer = await t.login('mpapadopoulou', 'Demo-2026!');
  const created = await t.app.inject({
    method: 'POST',
    url: `/api/document?companyid=${companyA}`,
    headers: writer,
    payload: { kind: 1, subject: 'Συνημμένα σε S3', documentTypeId: manual?.id },
  });
  expect(created.statusCode, created.body).toBe(201);
  documentId = created.json().id;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

describe('attachments on S3-compatible storage', () => {
  it('uploads to the bucket, downloads the same bytes, and writes nothing to the storage folder', async () => {
    const body = multipart([{ name: 'Αίτηση.pdf', content: PDF, type: 'application/pdf' }]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/document/${documentId}/attachments`,
      headers: { ...writer, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const attachment = uploaded.json().uploaded[0];
    expect(attachment.sha256).toBe(createHash('sha256').update(PDF).digest('hex'));
    const downloaded = await t.app.inject({
      method: 'GET',
      url: `/api/document/${documentId}/attachments/${attachment.id}/content`,
      headers: writer,
    });
    expect(downloaded.statusCode).toBe(200);
    expect(Buffer.compare(downloaded.rawPayload, PDF)).toBe(0);
    expect(existsSync(t.config.storageDir)).toBe(false);
  });

  it('sweeps an orphaned object from the bucket and keeps the referenced ones', async () => {
    if (!t.config.s3) throw new Error('the app is not on S3');
    const storage = createS3Storage(t.config.s3);
    const orphan = await storage.put(Buffer.from('μια αποτυχημένη αποστολή'));
    const columns = [{ table: 'document_attachments', column: 'storage_key' }];
    // Only objects older than the grace period go; nothing is that old yet.
    expect(await sweepStorage(t.database.db, storage, columns)).toBe(0);
    const removed = await sweepStorage(t.database.db, storage, columns, new Date(Date.now() + 60_000));
    expect(removed).toBe(1);
    expect(await storage.exists(orphan.key)).toBe(false);
    const result = await t.database.db.execute(sql`SELECT storage_key FROM document_attachments LIMIT 1`);
    const [kept] = (result as unknown as { rows: { storage_key: string }[] }).rows;
    expect(await storage.exists(kept?.storage_key ?? '')).toBe(true);
  });
});
