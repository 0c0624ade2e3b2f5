import { idParamSchema } from '@protocol/contracts';
import { z } from 'zod';

/** `/:id` of a record's routes. */
export const idParams = z.object({ id: idParamSchema });

/** `?companyid=` of a company's routes: the company in use, else the operator's first (`companyOf`). */
export const companyQuery = z.object({ companyid: idParamSchema.optional() });
