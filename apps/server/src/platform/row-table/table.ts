import { type EntityCatalog, errorKeys } from '@protocol/contracts';
import { and, count, inArray, is, SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../audit.ts';
import { updatedBy } from '../audit-columns.ts';
import type { Principal } from '../auth.ts';
import { FOREIGN_KEY_VIOLATION, pgError, UNIQUE_VIOLATION } from '../db-errors.ts';
import { AppError, notFound } from '../errors.ts';
import { defineList, type EntityList } from '../list/list.ts';
import type { FieldColumns } from '../list/sql.ts';
import { applyRowTable } from './apply.ts';

type Raw = Record<string, unknown>;
type Selection = Record<string, AnyPgColumn | SQL.Aliased>;

/**
 * One row table (spec §4 'Row tables', e.g. a settings table) as data: where its rows live, whose they are, how a saved row is written and
 * how its rows are read, for GET (the row table), /search (the list engine) and exports.
 * `owner` is what a row belongs to: a company, a custom table (its values), or nothing (global).
 */
export interface RowTable<Row extends { id: number | null }, Item, ListItem> {
  /** Name in the audit trail. */
  entity: string;
  table: PgTable;
  id: AnyPgColumn;
  catalog: EntityCatalog;
  /** The columns GET and /search read. */
  select: Selection;
  orderBy: (AnyPgColumn | SQL)[];
  toItem(raw: Raw): Item;
  toListItem(raw: Raw): ListItem;
  listColumns: FieldColumns;
  /** The rows of an owner (undefined for a global table). */
  ownedBy(owner: number | undefined): SQL | undefined;
  /** The owner's columns of a new row. */
  ownerValues(owner: number | undefined): Raw;
  /** The stored values of a saved row (without id and owner). */
  values(row: Row): Raw;
  /** Checks the rows' references (e.g. a parent of the same company) before writing; throws an AppError. */
  check?(tx: Tx, owner: number | undefined, rows: Row[]): Promise<void>;
  /** The error of a uniqueness violation. */
  uniqueKey?: string;
}

/** A column a row table reads but a saved row does not write (a sum, a name looked up, the owner). */
export interface ReadOnlyColumn {
  read: SQL | AnyPgColumn;
  /** What the list filters and sorts it by, when not what is read (a number read as text). */
  list?: SQL;
}

/**
 * A row table's columns declared once: `stored` are what a saved row writes, by the same names, and
 * what GET and /search read with the id and the `readOnly` ones; `listed` names those the list
 * filters and sorts by.
 */
export function rowTableColumns<
  Stored extends Record<string, AnyPgColumn>,
  ReadOnly extends Record<string, ReadOnlyColumn> = Record<never, ReadOnlyColumn>,
>(
  id: AnyPgColumn,
  stored: Stored,
  listed: readonly ((keyof Stored | keyof ReadOnly) & string)[],
  readOnly?: ReadOnly,
): Pick<RowTable<{ id: number | null }, unknown, unknown>, 'select' | 'listColumns'> & {
  values(row: { [Name in keyof Stored]: unknown }): Raw;
} {
  const extra = Object.entries(readOnly ?? {}) as [string, ReadOnlyColumn][];
  const select: Selection = { id, ...stored };
  for (const [name, column] of extra)
    select[name] = is(column.read, SQL) ? column.read.as(name) : column.read;
  const listColumns: FieldColumns = {};
  for (const name of listed) {
    const column = readOnly?.[name];
    listColumns[name] = column ? (column.list ?? column.read) : (stored[name] as AnyPgColumn);
  }
  const names = Object.keys(stored);
  return {
    select,
    listColumns,
    values: (row) => Object.fromEntries(names.map((name) => [name, row[name]])),
  };
}

export function readRows<Row extends { id: number | null }, Item, ListItem>(
  db: Db | Tx,
  def: RowTable<Row, Item, ListItem>,
  owner: number | undefined,
): Promise<Item[]> {
  return db
    .select(def.select)
    .from(def.table)
    .where(def.ownedBy(owner))
    .orderBy(...def.orderBy)
    .then((rows) => rows.map((row) => def.toItem(row as Raw)));
}

/** The row-table save of a table, all or nothing; answers the table as saved. */
export async function saveRows<Row extends { id: number | null }, Item, ListItem>(
  db: Db,
  def: RowTable<Row, Item, ListItem>,
  principal: Principal,
  owner: number | undefined,
  companyId: number | undefined,
  rows: Row[],
  requestId: string,
): Promise<Item[]> {
  const scope = (ids?: number[]) =>
    and(def.ownedBy(owner), ids === undefined ? undefined : inArray(def.id, ids));
  const audit = (tx: Tx, entityId: number, action: string) =>
    recordAudit(tx, { entity: def.entity, entityId, action, companyId, user: principal, requestId });
  try {
    await db.transaction(async (tx) => {
      if (def.check) await def.check(tx, owner, rows);
      await applyRowTable(tx, rows, {
        existingIds: async (t) =>
          (await t.select({ id: def.id }).from(def.table).where(scope())).map((r) => r.id as number),
        insert: async (t, row) => {
          const [created] = await t
            .insert(def.table)
            .values({
              ...def.ownerValues(owner),
              ...def.values(row),
              createuser: principal.username,
            } as never)
            .returning({ id: def.id });
          await audit(t, (created?.id as number | undefined) ?? 0, 'create');
        },
        update: async (t, id, row) => {
          await t
            .update(def.table)
            .set({ ...def.values(row), ...updatedBy(principal.username) } as never)
            .where(scope([id]));
        },
        remove: async (t, ids) => {
          await t.delete(def.table).where(scope(ids));
          for (const id of ids) await audit(t, id, 'delete');
        },
        unknownRow: () => notFound(),
      });
    });
  } catch (error) {
    const failure = pgError(error);
    if (failure?.code === UNIQUE_VIOLATION)
      throw new AppError(409, def.uniqueKey ?? errorKeys.namesNotUnique);
    if (failure?.code === FOREIGN_KEY_VIOLATION) throw new AppError(409, errorKeys.linkedElsewhere);
    throw error;
  }
  return readRows(db, def, owner);
}

/** The table's /search list on the list engine; `scope` says whose rows. */
export function rowTableList<Row extends { id: number | null }, Item, ListItem>(
  db: Db,
  def: RowTable<Row, Item, ListItem>,
): EntityList<ListItem> {
  return defineList<ListItem>({
    catalog: def.catalog,
    columns: def.listColumns,
    id: def.id,
    async fetch(where, orderBy, limit, offset) {
      const rows = await db
        .select(def.select)
        .from(def.table)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
      return rows.map((row) => def.toListItem(row as Raw));
    },
    async ids(where, orderBy) {
      const rows = await db
        .select({ id: def.id })
        .from(def.table)
        .where(where)
        .orderBy(...orderBy);
      return rows.map((row) => row.id);
    },
    async count(where) {
      const [row] = await db.select({ n: count() }).from(def.table).where(where);
      return row?.n ?? 0;
    },
  });
}
