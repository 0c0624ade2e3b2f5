import { z } from 'zod';

/** The largest value of a PostgreSQL `integer` column (ids, counts): anything larger is a 400, not a 500. */
export const INT4_MAX = 2_147_483_647;

/** A row id in a request body. */
export const idSchema = z.number().int().positive().max(INT4_MAX);

/** A row id in a path or query string (`/api/document/17`, `companyid=1`). */
export const idParamSchema = z.coerce.number().int().positive().max(INT4_MAX);
