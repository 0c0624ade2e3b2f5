import { type ApiError, errorKeys, type FieldError } from '@protocol/contracts';

type Params = Record<string, string | number>;

/** An error the client should see: an HTTP status and a catalog key (spec §8). */
export class AppError extends Error {
  /** Headers the answer carries besides the error (e.g. Retry-After of a 429). */
  headers: Record<string, string> = {};

  constructor(
    readonly status: number,
    readonly key: string,
    readonly params: Params = {},
    readonly fieldErrors?: FieldError[],
    cause?: unknown,
  ) {
    super(key, { cause });
  }
}

export const notFound = () => new AppError(404, errorKeys.notFound);
export const forbidden = (key: string = errorKeys.forbidden) => new AppError(403, key);
export const unauthorized = () => new AppError(401, errorKeys.unauthorized);
/** Too many attempts: try again in `seconds` (the answer says so in Retry-After too). */
export function tooManyAttempts(seconds: number): AppError {
  const error = new AppError(429, errorKeys.tooManyAttempts, { seconds });
  error.headers['Retry-After'] = String(seconds);
  return error;
}
export const badRequest = (fieldErrors: FieldError[]) =>
  new AppError(400, errorKeys.badData, {}, fieldErrors);

export type { ApiError };
