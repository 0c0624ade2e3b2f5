import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  chunksOf,
  isStorageKey,
  newStorageKey,
  type Storage,
  StorageLimitError,
  type StorageSource,
} from './storage.ts';

/** Where an S3-compatible service keeps the objects (S3_* settings, README "File storage"). */
export interface S3StorageOptions {
  bucket: string;
  /** An S3-compatible service's address (MinIO, Ceph, a cloud's object store); AWS when absent. */
  endpoint?: string;
  region: string;
  /** Without them the SDK's usual chain applies (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path instead of the host name: what most self-hosted services need. */
  forcePathStyle: boolean;
  /** A folder inside the bucket, e.g. one per installation sharing a bucket. */
  prefix: string;
  /** Where a put spools the bytes while hashing and counting them: S3 needs the length first. */
  spoolDir?: string;
}

/**
 * The S3-compatible adapter: the same contract as the disk one (immutable objects under generated
 * `yyyy/mm/<uuid>` keys), kept in a bucket that every server node reaches. A put first spools the
 * stream to a local temporary file, hashing, counting and enforcing `maxBytes` on the way, then
 * sends it with one PutObject of known length (no multipart: objects are attachments and PDFs, far
 * below S3's 5 GB single-put limit, and every S3-compatible service supports it), so a refused or
 * failed upload never leaves an object behind.
 */
export function createS3Storage(options: S3StorageOptions): Storage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Checksums only where S3 requires them: self-hosted services do not all know the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const prefix = options.prefix.replace(/^\/+|\/+$/g, '');
  const objectKey = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return prefix ? `${prefix}/${key}` : key;
  };
  const spoolDir = options.spoolDir ?? path.join(tmpdir(), 'protocol-s3-spool');

  return {
    async put(source: StorageSource, putOptions = {}) {
      const { maxBytes } = putOptions;
      await mkdir(spoolDir, { recursive: true });
      const spool = path.join(spoolDir, `${randomUUID()}.part`);
      const hash = createHash('sha256');
      let size = 0;
      try {
        const handle = await open(spool, 'wx', 0o600);
        try {
          for await (const chunk of chunksOf(source)) {
            size += chunk.byteLength;
            if (maxBytes !== undefined && size > maxBytes) throw new StorageLimitError(maxBytes);
            hash.update(chunk);
            await handle.write(chunk);
          }
        } finally {
          await handle.close();
        }
        const key = newStorageKey();
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: objectKey(key),
            Body: createReadStream(spool),
            ContentLength: size,
            ContentType: 'application/octet-stream',
          }),
        );
        return { key, size, sha256: hash.digest('hex') };
      } finally {
        await rm(spool, { force: true });
      }
    },

    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!(object.Body instanceof Readable)) throw new Error('the S3 client answered no Node stream');
        return { stream: object.Body, size: Number(object.ContentLength ?? 0) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      // S3 answers success for an object that is already gone.
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },

    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },

    async *keysStoredBefore(before) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix ? `${prefix}/` : undefined, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const key = prefix ? object.Key?.slice(prefix.length + 1) : object.Key;
          if (key && isStorageKey(key) && object.LastModified && object.LastModified < before) yield key;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}

/** No such object (GET answers NoSuchKey, HEAD only a 404). */
function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}
