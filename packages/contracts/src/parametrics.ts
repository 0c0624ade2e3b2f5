import { z } from 'zod';
import { idSchema } from './db.ts';

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
