import { and, eq, type SQL } from 'drizzle-orm';
import type { Principal } from '../../../platform/auth.ts';
import { documents } from '../protocol.schema.ts';
import { visibilityCondition } from './documents.service.ts';

/** The documents of one company that the asker sees (the documents core's visibility rule). */
export function visibleDocuments(principal: Principal, companyId: number): SQL {
  return and(eq(documents.companyId, companyId), visibilityCondition(principal)) as SQL;
}
