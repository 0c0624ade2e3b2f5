import { searchMydataSchema } from '@protocol/contracts';
import { and, eq, like, sql } from 'drizzle-orm';
import { builtSelect } from '../../db/prepared.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import { defineSearchSource } from '../../platform/search/search.ts';
import { financeDocuments, financeSeries } from '../finance/finance.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { mydataPendingCard } from './mydata.card.ts';
import { DEFAULT_SETTINGS } from './mydata.defaults.ts';
import { mydataRoutes, TRANSMIT_JOB, type TransmitPayload } from './mydata.routes.ts';
import { mydataSettings, mydataTransmissions } from './mydata.schema.ts';
import { transmitDocuments } from './mydata.service.ts';

const transmitJob: JobHandler<TransmitPayload> = ({ db, payload, progress, signal }) =>
  transmitDocuments(
    db,
    payload.companyId,
    payload.documentIds,
    (done, total) => progress(done, total),
    signal,
    payload.source ?? 'document',
  );

const byMark = builtSelect((db) =>
  db
    .select({
      id: financeDocuments.id,
      mark: mydataTransmissions.mark,
      seriesCode: financeSeries.code,
      number: financeDocuments.number,
      year: financeDocuments.year,
      traderName: traders.fullname,
    })
    .from(mydataTransmissions)
    .innerJoin(
      financeDocuments,
      and(
        eq(mydataTransmissions.source, 'document'),
        eq(financeDocuments.id, mydataTransmissions.documentId),
      ),
    )
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
    .where(
      and(
        eq(mydataTransmissions.companyId, sql.placeholder('companyId')),
        like(mydataTransmissions.mark, sql.placeholder('prefix')),
      ),
    )
    .limit(sql.placeholder('limit'))
    .$dynamic(),
);

/** The global search finds a document by its MARK (typed whole or its first digits). */
const markSearch = defineSearchSource({
  key: 'mydataDTOList',
  permission: 'mydata:read',
  item: searchMydataSchema,
  find: async ({ db, companyId, text, limit }) => {
    if (!/^\d{3,20}$/.test(text.raw)) return [];
    const rows = await byMark(db, { companyId, prefix: `${text.raw}%`, limit });
    return rows.map((row) => ({ ...row, mark: row.mark ?? '' }));
  },
});

/**
 * myDATA: finalized documents sent to AADE after XSD validation, their MARK, UID and QR
 * kept and printed, cancellations, the list by state, a dashboard card and the search by MARK.
 */
export const mydataModule = defineModule({
  name: 'mydata',
  plugin: mydataRoutes,
  jobs: { [TRANSMIT_JOB]: transmitJob as JobHandler<never> },
  search: [markSearch],
  dashboardCards: [mydataPendingCard],
  references: [],
  // The demo company sends to the demo installation's local stand-in for AADE (mydata.service.ts).
  demoData: async (tx, { companyId }) => {
    await tx
      .insert(mydataSettings)
      .values({ ...DEFAULT_SETTINGS, companyId, localAade: true, createuser: SYSTEM_USER });
  },
});
