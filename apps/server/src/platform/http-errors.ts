import { errorKeys, type FieldError, issueToFieldError } from '@protocol/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from './errors.ts';
import { requestLanguage, translate } from './i18n.ts';

/** One error shape for every failure: `{status, key, params, message}` (spec §8). */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A request on a session its node remembered (auth.ts) is answered only once the session is
    // confirmed: a signed-out one gets its 401, never another answer.
    const remembered = request.principal?.remembered;
    if (remembered && !(error instanceof AppError && error.status === 401))
      return remembered.confirm().then(
        () => answer(error, request, reply),
        (refused: FastifyError) => answer(refused, request, reply),
      );
    return answer(error, request, reply);
  });
});

function answer(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    reply.headers(error.headers);
    return send(request, reply, error.status, error.key, error.params, error.fieldErrors);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fieldErrors = error.validation.map((v) =>
      issueToFieldError({
        ...(v.params as object),
        code: v.keyword,
        message: v.message ?? '',
        path: v.instancePath.split('/').filter(Boolean),
      } as unknown as z.core.$ZodIssue),
    );
    return send(request, reply, 400, errorKeys.badData, {}, fieldErrors);
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return send(request, reply, 413, errorKeys.payloadTooLarge, {});
  if (status >= 400 && status < 500) {
    request.log.info({ err: error }, 'bad request');
    return send(request, reply, status, errorKeys.badData, {});
  }
  request.log.error({ err: error, reqId: request.id }, 'unexpected error');
  return send(request, reply, 500, errorKeys.server, {});
}

export function send(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  key: string,
  params: Record<string, string | number>,
  fieldErrors?: FieldError[],
) {
  const language = requestLanguage(request.cookies?.locale, request.headers['accept-language']);
  return reply.status(status).send({
    status,
    key,
    params,
    message: translate(language, key, params),
    ...(fieldErrors ? { fieldErrors } : {}),
    requestId: request.id,
  });
}
