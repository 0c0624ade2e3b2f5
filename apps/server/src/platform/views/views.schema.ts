import { index, integer, pgTable, primaryKey, serial, smallint, text } from 'drizzle-orm/pg-core';
import { auditColumns } from '../audit-columns.ts';

/**
 * Spec §3 'User table view': saved views of a list, per operator or shared (global = 1). A shared view
 * belongs to one company (`company_id`), or, saved by a super administrator, to every company (null).
 */
export const userMeta = pgTable(
  'user_meta',
  {
    id: serial('id').primaryKey(),
    /** The operator who saved it; global views are visible to all but keep their author. */
    userId: integer('user_id').notNull(),
    global: smallint('global').notNull().default(0),
    /** The company a shared view is shown in; null on a personal view and on a super administrator's shared one. */
    companyId: integer('company_id'),
    metaKey: text('meta_key').notNull(),
    metaValue: text('meta_value').notNull(),
    ...auditColumns(),
  },
  (t) => [index('user_meta_key_idx').on(t.metaKey, t.userId)],
);

/** Which view each operator has chosen per list: a shared view is active for one operator only. */
export const userMetaActive = pgTable(
  'user_meta_active',
  {
    userId: integer('user_id').notNull(),
    metaKey: text('meta_key').notNull(),
    metaId: integer('meta_id')
      .notNull()
      .references(() => userMeta.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.metaKey] })],
);
