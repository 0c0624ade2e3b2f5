import { z } from 'zod';
import { searchMydataSchema } from './mydata.ts';

/** The global search (spec §2 top bar, §3 search response): typed text shorter than this finds nothing. */
export const SEARCH_MIN_LENGTH = 3;
/** Results per list of the global search. */
export const SEARCH_LIST_LIMIT = 10;

/** A document in inboxDTOList / outboxDTOList: its number, name and subject. */
export const searchDocumentSchema = z.object({
  id: z.number().int(),
  /** N/YYYY, null for an unregistered draft. */
  protocolId: z.string().nullable(),
  name: z.string().nullable(),
  subject: z.string(),
});
export type SearchDocument = z.infer<typeof searchDocumentSchema>;

export const searchCaseSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });

export const searchTraderSchema = z.object({
  id: z.number().int(),
  fullname: z.string().nullable(),
  vatnumber: z.string().nullable(),
});

export const searchSubmissionSchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  applicant: z.string().nullable(),
  formTitle: z.string(),
});
/** A consumer in consumerDTOList: its code, owner and supply address. */
export const searchConsumerSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  ownerName: z.string().nullable(),
  supplyAddress: z.string(),
});

/**
 * GET /api/search: one list per registered source, empty where the asker lacks its permission.
 * Later modules' lists (consumers, submissions, financial documents) join this object.
 */
export const searchResponseSchema = z.object({
  inboxDTOList: z.array(searchDocumentSchema),
  outboxDTOList: z.array(searchDocumentSchema),
  caseDTOList: z.array(searchCaseSchema),
  traderDTOList: z.array(searchTraderSchema),
  submissionDTOList: z.array(searchSubmissionSchema),
  consumerDTOList: z.array(searchConsumerSchema),
  mydataDTOList: z.array(searchMydataSchema),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
