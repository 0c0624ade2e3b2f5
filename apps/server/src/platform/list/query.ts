import {
  type EntityCatalog,
  errorKeys,
  type FieldDef,
  INT4_MAX,
  isIsoDate,
  LIST_DEFAULT_SIZE,
  LIST_MAX_SIZE,
  LIST_RESERVED_PARAMS,
  type ListFilter,
  parseFilter,
} from '@protocol/contracts';
import { z } from 'zod';
import { AppError } from '../errors.ts';

/** A list request after parsing: every field and operator checked against the entity's catalog. */
export interface ListQuery {
  page: number;
  /** Rows per page; 'All' is LIST_MAX_SIZE. */
  size: number;
  sort: { field: FieldDef; desc: boolean }[];
  filters: (ListFilter & { def: FieldDef })[];
  search: string;
}

const listParam = z.union([z.string(), z.array(z.string())]);

/**
 * The query string of a list route: its named parameters (described so in the OpenAPI document),
 * and the filters, one parameter per field (`vatnumber=ci(contains(094))`), once or repeated.
 */
export const listQuerystringSchema = z
  .object({
    page: listParam.optional().describe('The page, from 0'),
    size: listParam.optional().describe(`Rows per page (default ${LIST_DEFAULT_SIZE}); -1 for all`),
    itemsPerPage: listParam.optional().describe('Alias of size'),
    sort: listParam.optional().describe('field,ASC|DESC; repeatable'),
    search: listParam.optional().describe('Greek-aware quick search over the searchable fields'),
    companyid: listParam.optional().describe('The company in use; the operator’s first by default'),
  })
  .catchall(listParam);
export type ListQuerystring = Record<string, string | string[]>;

const all = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const bad = (key: string, params: Record<string, string | number>) => new AppError(400, key, params);

function integerParam(name: string, value: string | string[] | undefined): number | undefined {
  const raw = all(value).at(-1);
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw bad(errorKeys.badData, { field: name });
  return Number(raw);
}

/**
 * Parses `page`, `size` (alias `itemsPerPage`), `sort=field,ASC|DESC` (repeatable), `search` and
 * filters `field=ci(contains(x))`, `field=eq(x)`, `gt/gte/lt/lte(x)`. Unknown fields or operators
 * are a 400 that names them.
 */
export function parseListQuery(catalog: EntityCatalog, query: ListQuerystring): ListQuery {
  const fields = new Map(catalog.fields.map((f) => [f.id, f as FieldDef]));
  const page = integerParam('page', query.page) ?? 0;
  let size =
    integerParam('size', query.size) ?? integerParam('itemsPerPage', query.itemsPerPage) ?? LIST_DEFAULT_SIZE;
  if (size === -1) size = LIST_MAX_SIZE;
  if (size < 1 || size > LIST_MAX_SIZE) throw bad(errorKeys.badData, { field: 'size' });
  // The page's first row (page × size) is an OFFSET: no list has 2^31 rows, and beyond that
  // PostgreSQL's bigint (or a number past 2^53) would answer with a 500.
  if (page < 0 || page * size > INT4_MAX) throw bad(errorKeys.badData, { field: 'page' });

  const sort = all(query.sort).flatMap((entry) => {
    if (entry === '') return [];
    const [name = '', direction = 'ASC'] = entry.split(',');
    const def = fields.get(name);
    if (!def?.sortable) throw bad(errorKeys.unknownField, { field: name });
    const upper = direction.trim().toUpperCase();
    if (upper !== 'ASC' && upper !== 'DESC')
      throw bad(errorKeys.unknownOperator, { field: name, operator: direction });
    return [{ field: def, desc: upper === 'DESC' }];
  });
  if (sort.length === 0) {
    const def = fields.get(catalog.defaultSort.field);
    if (def) sort.push({ field: def, desc: catalog.defaultSort.desc });
  }

  const filters: ListQuery['filters'] = [];
  for (const [name, value] of Object.entries(query)) {
    if ((LIST_RESERVED_PARAMS as readonly string[]).includes(name)) continue;
    const def = fields.get(name);
    if (!def) throw bad(errorKeys.unknownField, { field: name });
    for (const raw of all(value)) {
      const parsed = parseFilter(raw);
      if (!parsed) throw bad(errorKeys.unknownOperator, { field: name, operator: raw.split('(')[0] ?? raw });
      if (!def.filters.includes(parsed.op))
        throw bad(errorKeys.unknownOperator, { field: name, operator: parsed.op });
      filters.push({ field: name, op: parsed.op, value: checkValue(def, parsed.op, parsed.value), def });
    }
  }
  const search = all(query.search).at(-1)?.trim() ?? '';
  return { page, size, sort, filters, search: search.slice(0, 200) };
}

/** The value must suit the field's type: a 400 that names the field otherwise. */
function checkValue(def: FieldDef, op: string, value: string): string {
  const invalid = () => bad(errorKeys.badData, { field: def.id, operator: op });
  switch (def.type) {
    case 'number':
    case 'reference':
      if (!/^-?\d+$/.test(value)) throw invalid();
      return value;
    case 'money':
      if (!/^-?\d+(\.\d+)?$/.test(value)) throw invalid();
      return value;
    case 'date':
      if (!isIsoDate(value)) throw invalid();
      return value;
    case 'boolean':
      if (!['true', 'false', '1', '0'].includes(value)) throw invalid();
      return value === 'true' || value === '1' ? 'true' : 'false';
    case 'enum':
      if (!def.options?.some((o) => o.value === value)) throw invalid();
      return value;
    default:
      if (value.length > 200) throw invalid();
      return value;
  }
}
