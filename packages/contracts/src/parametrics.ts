import { z } from 'zod';
import { idSchema } from './db.ts';
import type { EntityCatalog } from './list.ts';

/** Book types: incoming (εισερχόμενα) and outgoing (εξερχόμενα) protocol books. */
export const bookTypes = { incoming: 1, outgoing: 2 } as const;

/** A protocol book (spec §3 'Book: booktype.incoming, isActive'), one per type and year. */
export const protocolBookSchema = z.object({
  id: z.number().int(),
  descr: z.string(),
  year: z.number().int(),
  booktype: z.object({ id: z.union([z.literal(1), z.literal(2)]), incoming: z.boolean() }),
  isActive: z.boolean(),
});
export type ProtocolBook = z.infer<typeof protocolBookSchema>;

/** A row of the row-table save: negative (new) ids arrive as null (spec §4 'Row tables'). */
export const protocolBookRowSchema = z.object({
  id: idSchema.nullable(),
  descr: z.string().trim().min(1).max(200),
  year: z.number().int().min(1900).max(2999),
  booktype: z.object({ id: z.union([z.literal(1), z.literal(2)]) }),
  isActive: z.boolean(),
});
export type ProtocolBookRow = z.infer<typeof protocolBookRowSchema>;

export const protocolBooksCatalog = {
  entity: 'protocolBook',
  titleKey: 'parametrics.protocolBook.title',
  defaultSort: { field: 'year', desc: true },
  fields: [
    {
      id: 'descr',
      type: 'text',
      labelKey: 'parametrics.protocolBook.descr',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      searchable: true,
      width: 260,
    },
    {
      id: 'year',
      type: 'number',
      labelKey: 'parametrics.protocolBook.year',
      sortable: true,
      filters: ['eq', 'gte', 'lte'],
      exportable: true,
      width: 100,
    },
    {
      id: 'booktype',
      type: 'enum',
      labelKey: 'parametrics.protocolBook.booktype',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: [
        { value: '1', labelKey: 'parametrics.protocolBook.booktype_1' },
        { value: '2', labelKey: 'parametrics.protocolBook.booktype_2' },
      ],
      width: 160,
    },
    {
      id: 'isActive',
      type: 'boolean',
      labelKey: 'parametrics.protocolBook.isActive',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 100,
    },
  ],
} as const satisfies EntityCatalog;
