import { errorKeys, type Permission } from '@protocol/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import { type ListPermission, mayRead } from '../list/registry.ts';
import { registerListRoute } from '../list/route.ts';
import type { ModuleOptions } from '../module.ts';
import { type RowTable, readRows, rowTableList, saveRows } from './table.ts';

type App = Parameters<FastifyPluginAsyncZod<ModuleOptions>>[0];

/** A row table is edited on one screen: more rows than this is not a table but an import. */
export const ROW_TABLE_MAX_ROWS = 5000;

export interface RowTableRoutes<Row extends { id: number | null }, Item, ListItem> {
  /** GET (all rows) and POST (row-table save) under the plugin's prefix. */
  path: string;
  /** The list (list engine), `${path}/search` unless given. */
  searchPath?: string;
  /** Export-list key (getForEntity). */
  entityName: string;
  table: RowTable<Row, Item, ListItem>;
  rowSchema: z.ZodType<Row, unknown>;
  itemSchema: z.ZodType<Item>;
  /** The list's rows, when they differ from the table's items. */
  listItemSchema?: z.ZodType<ListItem>;
  tags: readonly string[];
  /**
   * A company's table (rows of the company in use). Otherwise the table is shared by every company
   * (national reference data such as banks and VAT rates): only a super administrator saves it,
   * since a save replaces the whole table for everyone.
   */
  companyScoped: boolean;
  /**
   * What reading needs: a permission, any of several (a table other screens' lists need), or
   * 'signedIn' (national reference data every operator's forms list).
   */
  read: ListPermission;
  write: Permission;
  /** Who may read the list, when more than `read` may (e.g. the forms whose selects list the rows). */
  listPermission?: readonly Permission[];
  /** The list's rows of a company, when not simply the table's own company rows. */
  listScope?: (companyId: number) => SQL | undefined;
}

/** GET, POST (row-table save) and the list of one row table, the list registered for exports. */
export function registerRowTableRoutes<Row extends { id: number | null }, Item, ListItem>(
  app: App,
  { db, lists }: ModuleOptions,
  spec: RowTableRoutes<Row, Item, ListItem>,
): void {
  const { table, companyScoped, tags, read } = spec;
  const ownerOf = (request: Parameters<typeof companyOf>[0]) =>
    companyScoped ? companyOf(request) : undefined;
  // A route declares one permission: with several (or none) any signed-in operator passes and the handler checks.
  const readConfig: { permission?: Permission; signedIn?: boolean } =
    typeof read === 'string' && read !== 'signedIn' ? { permission: read } : { signedIn: true };

  app.get(
    spec.path,
    {
      config: readConfig,
      schema: {
        tags: [...tags],
        summary: `All rows of ${table.catalog.entity}`,
        response: { 200: z.array(spec.itemSchema) },
      },
    },
    async (request) => {
      if (Array.isArray(read) && !mayRead(principalOf(request).scope, read)) {
        throw new AppError(403, errorKeys.forbidden, { permission: [read].flat().join('|') });
      }
      return readRows(db, table, ownerOf(request));
    },
  );

  app.post(
    spec.path,
    {
      config: { permission: spec.write },
      schema: {
        tags: [...tags],
        summary: `Row-table save of ${table.catalog.entity}: the whole table, new rows with a null id`,
        body: z.array(spec.rowSchema).max(ROW_TABLE_MAX_ROWS),
        response: { 200: z.array(spec.itemSchema) },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      if (!companyScoped && !principalOf(request).superAdmin) throw new AppError(403, errorKeys.sharedTable);
      return saveRows(db, table, principalOf(request), owner, owner, request.body as Row[], request.id);
    },
  );

  const listed = {
    path: spec.searchPath ?? `${spec.path}/search`,
    entityName: spec.entityName,
    permission: spec.listPermission ?? read,
    list: rowTableList(db, table),
    tags,
    summary: `The ${table.catalog.entity} list: paging, sorting, Greek-aware filters (list engine)`,
    item: (spec.listItemSchema ?? spec.itemSchema) as z.ZodType<ListItem>,
  };
  registerListRoute(
    app,
    lists,
    companyScoped
      ? { ...listed, scope: ({ companyId }) => (spec.listScope ?? table.ownedBy)(companyId) }
      : { ...listed, companyScoped: false, scope: () => table.ownedBy(undefined) },
  );
}
