import { z } from 'zod';
import { idParamSchema, idSchema } from './db.ts';
import { filterOperators } from './list.ts';

/** Spec §3 'User table view': one saved view per row, its JSON in metaValue. */
export const userMetaSchema = z.object({
  id: idSchema.nullable(),
  global: z.union([z.literal(0), z.literal(1)]),
  metaKey: z.string().trim().min(1).max(200),
  metaValue: z.string().min(2).max(200_000),
});
export type UserMeta = z.infer<typeof userMetaSchema>;

export const TABLE_VIEW_VERSION = 1;

export const viewColumnSchema = z.object({
  id: z.string().min(1).max(100),
  visible: z.boolean(),
  width: z.number().int().min(40).max(2000).optional(),
});

export const viewFilterSchema = z.object({
  op: z.enum(filterOperators),
  value: z.string().max(500),
});

/** What metaValue holds (spec §3; the wire keeps the spec's spelling `headerAvancedFilters`). */
export const tableViewSchema = z.object({
  version: z.number().int().default(TABLE_VIEW_VERSION),
  title: z.string().trim().min(1).max(200),
  search: z.string().max(500).default(''),
  active: z.union([z.literal(0), z.literal(1)]),
  columns: z.array(viewColumnSchema).max(200),
  headerAvancedFilters: z.record(z.string(), z.array(viewFilterSchema).max(10)).default({}),
  defaultTableOptions: z.object({
    itemsPerPage: z.number().int(),
    page: z.number().int().min(0),
    sortBy: z.array(z.string()).max(5),
    sortDesc: z.array(z.boolean()).max(5),
  }),
});
export type TableView = z.infer<typeof tableViewSchema>;

/** The list's key, and the company in use: its shared views are the ones shown (the operator's first when absent). */
export const userMetaQuerySchema = z.object({
  metaKey: z.string().trim().min(1).max(200),
  companyid: idParamSchema.optional(),
});
