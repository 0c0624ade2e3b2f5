import { customType } from 'drizzle-orm/pg-core';

/**
 * A stored full-text vector. It is filled by a trigger (see migration 0012_global_search), not a
 * generated column, so a rebuild after a change of the text search configuration is a batched
 * `UPDATE … SET search_vector = NULL` that searches keep reading meanwhile, not a table rewrite.
 */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});
