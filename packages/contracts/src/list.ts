import { z } from 'zod';
import type { AmountKind } from './money.ts';

/**
 * The list engine's vocabulary. Each entity declares its fields once (an EntityCatalog); that one
 * catalog drives the server's allow-lists, the table's columns, the header filters and exports.
 */
export const fieldTypes = ['text', 'number', 'money', 'date', 'enum', 'boolean', 'reference'] as const;
export type FieldType = (typeof fieldTypes)[number];

/** Spec §3 comparison operators, plus `contains` for text. */
export const filterOperators = ['contains', 'eq', 'gt', 'gte', 'lt', 'lte'] as const;
export type FilterOperator = (typeof filterOperators)[number];

export interface EnumOption {
  value: string;
  labelKey: string;
  /** A literal label that wins over labelKey: the choices of a custom field are data, not catalog keys. */
  label?: string;
}

export interface FieldDef {
  id: string;
  type: FieldType;
  labelKey: string;
  /** Labels that win over labelKey: a custom field's labels are data, not catalog keys. */
  label?: { el: string; en: string };
  sortable: boolean;
  filters: readonly FilterOperator[];
  exportable: boolean;
  /** Part of the list's quick search box. */
  searchable?: boolean;
  /** The values of an enum field, shown by their labels in the table and in exports. */
  options?: readonly EnumOption[];
  /**
   * A text value that names a catalog entry of an open set (a job's kind, declared by modules): shown,
   * in the table and in exports, by the label under this key prefix, or as itself when it has none.
   */
  valueLabelPrefix?: string;
  /** A period's name as bills keep it (Greek, as printed): shown in the interface language (periodNameIn). */
  periodName?: boolean;
  /**
   * What a decimal ('money') field holds, which decides how it is written: money (the default), a unit
   * price, a percentage or a quantity (formatAmount).
   */
  amount?: AmountKind;
  /**
   * A code padded with spaces so that it sorts (a consumer's encoding code, "01-001-  101"): shown,
   * in the table and in exports, as people write it (writtenCode: "01-001-101"); sorted as stored.
   */
  paddedCode?: boolean;
  /** A free-text notes column: its cells are at most 150 px wide (spec §9). */
  notes?: boolean;
  /** Long text (error messages) that wraps within the column's width rather than widening the table. */
  wrap?: boolean;
  /** Not shown until the user picks it in the column chooser. */
  hiddenByDefault?: boolean;
  /** Default column width in px. */
  width?: number;
}

export interface EntityCatalog {
  /** Used in paths and view keys, e.g. 'users'. */
  entity: string;
  /** Translation key of the list's title (also the default export file name). */
  titleKey: string;
  fields: readonly FieldDef[];
  defaultSort: { field: string; desc: boolean };
}

/** Spec §9: default page size 50. */
export const LIST_DEFAULT_SIZE = 50;
/** Page size 'All' (spec §9) returns at most this many rows; lookups ask for 99999 (spec §7). */
export const LIST_MAX_SIZE = 100_000;
/** The page-size options of the table footer; `-1` is 'All'. */
export const LIST_SIZE_OPTIONS = [10, 25, 50, 100, 500, -1] as const;

/** Query parameters with a meaning of their own; every other parameter is a field filter. */
export const LIST_RESERVED_PARAMS = ['page', 'size', 'itemsPerPage', 'sort', 'search', 'companyid'] as const;

/**
 * Lists that count approximately count exactly up to this many rows; above it `totalElements` is
 * PostgreSQL's estimate, flagged `totalEstimated` (the screen says "about N").
 */
export const LIST_EXACT_COUNT_LIMIT = 1000;

/** Spec §3 paged response, plus `totalEstimated` when the total is an estimate. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    number: z.number().int(),
    totalPages: z.number().int(),
    totalElements: z.number().int(),
    totalEstimated: z.boolean().optional(),
    size: z.number().int(),
    offset: z.number().int(),
    first: z.boolean(),
    last: z.boolean(),
  });
export interface Page<T> {
  content: T[];
  number: number;
  totalPages: number;
  totalElements: number;
  /** True when totalElements is an estimate (more than LIST_EXACT_COUNT_LIMIT rows, on a list that allows it). */
  totalEstimated?: boolean;
  size: number;
  offset: number;
  first: boolean;
  last: boolean;
}

/** One header filter as the wire carries it: `field=ci(contains(x))`, `field=eq(x)`, `field=gte(x)` … */
export interface ListFilter {
  field: string;
  op: FilterOperator;
  value: string;
}

export function formatFilter(filter: Omit<ListFilter, 'field'>): string {
  return filter.op === 'contains' ? `ci(contains(${filter.value}))` : `${filter.op}(${filter.value})`;
}

/** Parses one filter value; null when it is not of the grammar. */
export function parseFilter(raw: string): { op: FilterOperator; value: string } | null {
  let text = raw;
  let caseInsensitive = false;
  if (text.startsWith('ci(') && text.endsWith(')')) {
    text = text.slice(3, -1);
    caseInsensitive = true;
  }
  const match = /^([a-z]+)\((.*)\)$/s.exec(text);
  if (!match) return null;
  const op = match[1] as FilterOperator;
  if (!filterOperators.includes(op)) return null;
  if (caseInsensitive && op !== 'contains' && op !== 'eq') return null;
  return { op, value: match[2] ?? '' };
}

/** Greek-aware normalisation, the same as the database's `norm_text`: no accents, no case, ς → σ. */
export function normalizeText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ς/g, 'σ');
}
