import multipart from '@fastify/multipart';
import { attachmentListSchema, attachmentUploadResultSchema, idParamSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../../platform/auth.ts';
import { AppError } from '../../../platform/errors.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { attachmentErrors, isPreviewable } from './attachments.content.ts';
import {
  deleteAttachment,
  listAttachments,
  MAX_FILES_PER_UPLOAD,
  openAttachment,
  prepareUpload,
  removeStored,
  saveUploads,
  storeUpload,
} from './attachments.service.ts';

const id = idParamSchema;
/** Before its first save a document has no id: the upload is refused with the spec §5 message. */
const uploadParams = z.object({ id: z.string() });
const documentParams = z.object({ id });
const attachmentParams = z.object({ id, attachmentId: id });
const uploadQuery = z.object({ replaces: id.optional() });
const contentQuery = z.object({ disposition: z.enum(['inline', 'attachment']).default('attachment') });

/** A sandbox for what the browser shows inline: no scripts, no forms, nothing but the file itself. */
const INLINE_CSP =
  "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'";

/**
 * `attachment; filename="ascii"; filename*=UTF-8''…` (RFC 6266 / RFC 5987): Greek names survive in
 * every current browser, older ones get an ASCII fallback.
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  const fallback =
    fileName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\]/g, '_') || 'file';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Attachments of a document: upload (one or several files; `replaces` makes a new version),
 * list, download/preview, delete. Multipart is registered here only, with its limits.
 */
export const attachmentsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, storage }) => {
  await app.register(multipart, {
    limits: {
      files: MAX_FILES_PER_UPLOAD,
      fields: 10,
      fieldSize: 1024,
      parts: MAX_FILES_PER_UPLOAD + 10,
      headerPairs: 100,
    },
    throwFileSizeLimit: false,
  });

  app.post(
    '/document/:id/attachments',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['protocol'],
        summary:
          'Attach files to a saved document (multipart, one or several); `replaces` uploads a new version of that file',
        consumes: ['multipart/form-data'],
        params: uploadParams,
        querystring: uploadQuery,
        response: { 201: attachmentUploadResultSchema },
      },
    },
    async (request, reply) => {
      const { principal, companyId } = contextOf(request);
      const documentId = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : 0;
      if (documentId <= 0) throw new AppError(400, attachmentErrors.notSaved);
      if (!request.isMultipart()) throw new AppError(400, attachmentErrors.noFile);
      const target = await prepareUpload(db, principal, companyId, documentId, request.query.replaces);
      const stored: Awaited<ReturnType<typeof storeUpload>>[] = [];
      try {
        // One more byte than allowed reaches storeUpload, which refuses it (413) and removes the file.
        for await (const part of request.parts({ limits: { fileSize: target.maxBytes + 1 } })) {
          if (part.type !== 'file') continue;
          if (target.replacesId !== undefined && stored.length > 0) {
            throw new AppError(400, attachmentErrors.oneVersion);
          }
          stored.push(await storeUpload(storage, target, { fileName: part.filename, stream: part.file }));
        }
      } catch (error) {
        await removeStored(storage, stored);
        const code = (error as { code?: string }).code;
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
          throw new AppError(413, attachmentErrors.tooMany, { max: MAX_FILES_PER_UPLOAD });
        }
        throw error;
      }
      const uploaded = await saveUploads(db, storage, principal, target, stored, request.id);
      return reply.status(201).send({ uploaded });
    },
  );

  app.get(
    '/document/:id/attachments',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['protocol'],
        summary: "A document's files (latest versions with their older ones) and the upload limits",
        params: documentParams,
        response: { 200: attachmentListSchema },
      },
    },
    async (request) => {
      const { principal, companyId } = contextOf(request);
      return listAttachments(db, principal, companyId, request.params.id);
    },
  );

  app.get(
    '/document/:id/attachments/:attachmentId/content',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['protocol'],
        summary: 'Download a file (or show a PDF/image inline); written to the document history',
        params: attachmentParams,
        querystring: contentQuery,
      },
    },
    async (request, reply) => {
      const { principal, companyId } = contextOf(request);
      const { attachment, file } = await openAttachment(
        db,
        storage,
        principal,
        companyId,
        request.params.id,
        request.params.attachmentId,
        request.id,
      );
      const inline = request.query.disposition === 'inline' && isPreviewable(attachment.contentType);
      reply
        .header('Content-Type', attachment.contentType)
        .header('Content-Length', String(file.size))
        .header(
          'Content-Disposition',
          contentDisposition(inline ? 'inline' : 'attachment', attachment.fileName),
        )
        .header('X-Content-Type-Options', 'nosniff')
        // A document's file is personal data like every signed-in answer: never kept in a cache.
        .header('Cache-Control', 'no-store')
        .header('ETag', `"${attachment.sha256}"`);
      if (inline) {
        reply.header('Content-Security-Policy', INLINE_CSP).header('X-Frame-Options', 'SAMEORIGIN');
      }
      return reply.send(file.stream);
    },
  );

  app.delete(
    '/document/:id/attachments/:attachmentId',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['protocol'],
        summary:
          "Delete a file with its versions (kept for the history); a registered document's files only by protocol:admin",
        params: attachmentParams,
      },
    },
    async (request, reply) => {
      const { principal, companyId } = contextOf(request);
      await deleteAttachment(
        db,
        principal,
        companyId,
        request.params.id,
        request.params.attachmentId,
        request.id,
      );
      return reply.status(204).send();
    },
  );
};
