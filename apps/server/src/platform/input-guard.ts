import { errorKeys, type FieldError } from '@protocol/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors.ts';

/**
 * Text PostgreSQL cannot store — a NUL character, or half of a surrogate pair that JSON allows but
 * UTF-8 does not — is refused at the edge, once for every route: a 400 naming the field, instead of
 * a 500 from the database or a U+FFFD silently stored in its place.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Deeper than any request of the API: the walk stops there (the schemas refuse such bodies). */
const MAX_DEPTH = 32;

function unstorableFields(value: unknown, path: string, found: FieldError[], depth = 0): void {
  if (found.length >= 10 || depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (UNSTORABLE.test(value)) found.push({ field: path, key: 'validation.unstorable_text', params: {} });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    if (UNSTORABLE.test(key)) found.push({ field, key: 'validation.unstorable_text', params: {} });
    unstorableFields(item, field, found, depth + 1);
  }
}

export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const found: FieldError[] = [];
    unstorableFields(request.params, '', found);
    unstorableFields(request.query, '', found);
    unstorableFields(request.body, '', found);
    if (found.length > 0) throw new AppError(400, errorKeys.badData, {}, found);
  });
});
