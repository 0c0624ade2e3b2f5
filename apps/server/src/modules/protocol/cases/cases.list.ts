import { type CaseListItem, casesCatalog } from '@protocol/contracts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { defineList } from '../../../platform/list/list.ts';
import { listSource } from '../../../platform/list/source.ts';
import { caseDocuments, cases, caseTypes } from '../protocol.schema.ts';

/** The case folders of one company. */
export const casesOfCompany = (companyId: number): SQL => eq(cases.companyId, companyId);

/** The case folders list (GET /api/cases/search) on the list engine: search by code or description. */
export function casesList(db: Db) {
  const documentsCount = sql<number>`(SELECT count(*)::int FROM ${caseDocuments} WHERE ${caseDocuments.caseId} = ${cases.id})`;
  const columns = {
    id: cases.id,
    code: cases.code,
    name: cases.name,
    caseType: caseTypes.descr,
    agencies: cases.agencies,
    documentsCount,
    closed: cases.closed,
    createdate: cases.createdate,
  };
  const source = listSource(
    db,
    () => db.select(columns).from(cases).leftJoin(caseTypes, eq(caseTypes.id, cases.caseTypeId)).$dynamic(),
    (row) => ({
      ...row,
      documentsCount: Number(row.documentsCount),
      createdate: row.createdate?.toISOString() ?? null,
    }),
  );
  return defineList<CaseListItem>({
    catalog: casesCatalog,
    columns: {
      ...columns,
      code: { value: cases.code, normalized: cases.codeNorm },
      name: { value: cases.name, normalized: cases.nameNorm },
    },
    id: cases.id,
    ...source,
  });
}
