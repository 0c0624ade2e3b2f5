import { z } from 'zod';
import { idSchema } from './db.ts';
import type { EntityCatalog } from './list.ts';
import { documentLinkSchema, historyEntrySchema, optionalText, selectableSchema } from './protocol.ts';

/** Case folders of the protocol (spec §3 Case, §7): a code, a name and the documents filed in it. */

const id = idSchema;

export const saveCaseSchema = z.object({
  /** Left empty, the server gives the next code of the year (e.g. 2026/0007). */
  code: optionalText(60),
  name: z.string().trim().min(1).max(500),
  caseTypeId: id.nullish(),
  agencies: optionalText(1000),
  comments: optionalText(4000),
  closed: z.boolean().default(false),
  documentIds: z.array(id).max(1000).default([]),
});
export type SaveCaseRequest = z.input<typeof saveCaseSchema>;

export const caseDocumentSchema = documentLinkSchema.extend({
  protocolDate: z.string().nullable(),
  correspondents: z.string().nullable(),
  addedAt: z.string(),
  addedBy: z.string().nullable(),
});

export const caseSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  caseType: selectableSchema.nullable(),
  agencies: z.string().nullable(),
  comments: z.string().nullable(),
  closed: z.boolean(),
  documents: z.array(caseDocumentSchema),
  createuser: z.string().nullable(),
  createdate: z.string().nullable(),
  updateuser: z.string().nullable(),
  updatedate: z.string().nullable(),
  defuser: z.string().nullable(),
  defdate: z.string().nullable(),
  changeuser: z.string().nullable(),
  changedate: z.string().nullable(),
});
export type Case = z.infer<typeof caseSchema>;

/** A case's timeline: every history line of every document in it, newest first. */
export const caseTimelineEntrySchema = historyEntrySchema.extend({ document: documentLinkSchema });

export const caseListItemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  caseType: z.string().nullable(),
  agencies: z.string().nullable(),
  documentsCount: z.number().int(),
  closed: z.boolean(),
  createdate: z.string().nullable(),
});
export type CaseListItem = z.infer<typeof caseListItemSchema>;

export const casesCatalog = {
  entity: 'cases',
  titleKey: 'cases.title',
  defaultSort: { field: 'id', desc: true },
  fields: [
    {
      id: 'id',
      type: 'number',
      labelKey: 'cases.field.id',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      hiddenByDefault: true,
      width: 80,
    },
    {
      id: 'code',
      type: 'text',
      labelKey: 'cases.field.code',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 130,
    },
    {
      id: 'name',
      type: 'text',
      labelKey: 'cases.field.name',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 340,
    },
    {
      id: 'caseType',
      type: 'text',
      labelKey: 'cases.field.caseType',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      width: 180,
    },
    {
      id: 'agencies',
      type: 'text',
      labelKey: 'cases.field.agencies',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      notes: true,
      width: 150,
    },
    {
      id: 'documentsCount',
      type: 'number',
      labelKey: 'cases.field.documentsCount',
      sortable: false,
      filters: [],
      exportable: true,
      width: 110,
    },
    {
      id: 'closed',
      type: 'boolean',
      labelKey: 'cases.field.closed',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 100,
    },
    {
      id: 'createdate',
      type: 'date',
      labelKey: 'cases.field.createdate',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 140,
    },
  ],
} as const satisfies EntityCatalog;
