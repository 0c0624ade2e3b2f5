import multipart from '@fastify/multipart';
import { errorKeys } from '@protocol/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import type { ModuleOptions } from '../module.ts';
import { checkImportFile, ImportFileLimitError, isXlsx } from './limits.ts';

type App = Parameters<FastifyPluginAsyncZod<ModuleOptions>>[0];

/**
 * Lets a plugin's routes take one uploaded file (an import's sheet, a bank file, a form's
 * attachment) beside a few small fields; the size is checked where the file is read (`uploadedFile`).
 */
export async function acceptOneFile(app: App): Promise<void> {
  await app.register(multipart, {
    limits: { files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 100 },
    throwFileSizeLimit: false,
  });
}

/**
 * The file part of a multipart upload, its name as sent and its bytes: refused with 400 `noFile` when
 * there is none or it is empty, 413 above `maxBytes` (read no further than one byte past it).
 */
export async function uploadedFile(
  request: FastifyRequest,
  options: { maxBytes: number; noFile: string },
): Promise<{ name: string; content: Buffer }> {
  if (!request.isMultipart()) throw new AppError(400, options.noFile);
  let content: Buffer | null = null;
  let name = '';
  for await (const part of request.parts({ limits: { fileSize: options.maxBytes + 1 } })) {
    if (part.type !== 'file') continue;
    name = part.filename;
    content = await part.toBuffer();
  }
  if (!content || content.length === 0) throw new AppError(400, options.noFile);
  if (content.length > options.maxBytes)
    throw new AppError(413, 'error.payload_too_large', { mb: options.maxBytes / 1024 / 1024 });
  return { name, content };
}

/**
 * The sheet of an import upload (multipart, its file part): refused before any job with 400 `noFile`
 * when there is none or it is empty, 413 above `maxBytes`, 415 `fileType` unless it is an .xlsx that
 * is a zip or a text file (its name matching `csvName`) of UTF-8 without NULs; 413 or 415 beyond
 * the import limits (`checkUploadedImport`).
 */
export async function uploadedSheet(
  request: FastifyRequest,
  options: { maxBytes: number; csvName: RegExp; noFile: string; fileType: string },
): Promise<Buffer> {
  const { name: sent, content } = await uploadedFile(request, options);
  const name = sent.toLowerCase();
  const csv =
    options.csvName.test(name) && !content.includes(0) && content.toString('utf8').indexOf('\uFFFD') < 0;
  if (!(name.endsWith('.xlsx') && isXlsx(content)) && !csv) throw new AppError(415, options.fileType);
  await checkUploadedImport(content);
  return content;
}

/**
 * An import file within IMPORT_LIMITS before any job is queued for it: 413 with the limit's key and
 * params (e.g. an xlsx that unpacks to more than 64 MB), 415 when it is no readable xlsx.
 */
export async function checkUploadedImport(content: Buffer): Promise<void> {
  try {
    await checkImportFile(content);
  } catch (error) {
    if (!(error instanceof ImportFileLimitError)) throw error;
    throw new AppError(error.key === errorKeys.importUnreadable ? 415 : 413, error.key, error.params);
  }
}
