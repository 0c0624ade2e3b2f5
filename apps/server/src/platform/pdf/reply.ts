import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A print to answer with: drawn in memory, or stored and streamed with its size. */
export type InlineFile = { fileName: string } & ({ buffer: Buffer } | { stream: Readable; size: number });

/**
 * Answers with a print the browser shows in place (inline) under its name. `contentType` is for the
 * rare print that is not a PDF (a statement's Excel opens the same way).
 */
export function sendInline(
  reply: FastifyReply,
  file: InlineFile,
  contentType = 'application/pdf',
): FastifyReply {
  reply.header('Content-Type', contentType);
  if ('stream' in file) reply.header('Content-Length', String(file.size));
  reply.header('Content-Disposition', `inline; filename="${file.fileName}"`);
  return reply.send('stream' in file ? file.stream : file.buffer);
}
