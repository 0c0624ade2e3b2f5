import { is, SQL, sql } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { rowTableColumns } from './table.ts';

const shelves = pgTable('shelves', {
  id: serial('id').primaryKey(),
  warehouseId: integer('warehouse_id').notNull(),
  code: text('code').notNull(),
  descr: text('descr').notNull(),
  active: boolean('active').notNull(),
});
const itemCount = sql`(SELECT count(*) FROM items i WHERE i.shelf_id = ${sql.raw('"shelves"."id"')})`;

describe('rowTableColumns: a row table’s columns declared once', () => {
  const columns = rowTableColumns(
    shelves.id,
    { code: shelves.code, descr: shelves.descr, active: shelves.active },
    ['code', 'items', 'active'],
    {
      warehouseId: { read: shelves.warehouseId },
      items: { read: sql`${itemCount}::text`, list: itemCount },
    },
  );

  it('reads the id, the stored columns and the read-only ones, a computed one under its name', () => {
    expect(Object.keys(columns.select)).toEqual(['id', 'code', 'descr', 'active', 'warehouseId', 'items']);
    expect(columns.select.warehouseId).toBe(shelves.warehouseId);
    const items = columns.select.items;
    expect(is(items, SQL.Aliased) && items.fieldAlias).toBe('items');
  });

  it('lists only the named columns, a computed one by what the list sorts on', () => {
    expect(Object.keys(columns.listColumns)).toEqual(['code', 'items', 'active']);
    expect(columns.listColumns.code).toBe(shelves.code);
    expect(columns.listColumns.items).toBe(itemCount);
  });

  it('writes the stored columns of a saved row and nothing else (not its id, owner or read-only fields)', () => {
    const row = { id: 7, warehouseId: 3, code: 'Α1', descr: 'Ράφι', active: true, items: '12' };
    expect(columns.values(row)).toEqual({ code: 'Α1', descr: 'Ράφι', active: true });
  });
});
