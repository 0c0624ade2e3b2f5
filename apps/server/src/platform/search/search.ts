import type { Permission } from '@protocol/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../auth.ts';

/**
 * The global search registry: a module declares its sources on its AppModule (`search`), and
 * GET /api/search answers one list per source without knowing any module.
 */
export interface SearchSource<Item = unknown> {
  /** The list's name in the answer, e.g. 'inboxDTOList'. */
  key: string;
  /** Without it the list is answered empty. */
  permission: Permission;
  /** One result, as answered (validated and serialised by the route). */
  item: z.ZodType<Item>;
  /** At most `limit` of the asker's matches in the company in use, best first. */
  find(context: SearchContext): Promise<Item[]>;
  /**
   * The table whose `search_vector` the source reads (with `id` and `company_id` columns and the
   * trigger that fills the vector, and a SQL function `search_vector_of(<table>)` of its row answering
   * what that trigger stores): the reindex recomputes the vectors that differ from it. Sources sharing
   * a table name it once; a source that keeps no vector of its own names none.
   */
  indexes?: string;
}

export interface SearchContext {
  db: Db;
  principal: Principal;
  companyId: number;
  text: SearchText;
  limit: number;
}

/** What was typed. */
export interface SearchText {
  /** The input, trimmed. */
  raw: string;
  /** Its words: runs of letters and digits (the value of `WORDS`). */
  words: string[];
}

/** Keeps each source's item type while the registry holds them side by side. */
export function defineSearchSource<Item>(source: SearchSource<Item>): SearchSource {
  return source as unknown as SearchSource;
}

/** How many of the newest rows the first, bounded step of `newestMatches` reads. */
export const RECENT_WINDOW = 5_000;

/**
 * Newest-first matches in two bounded steps, because the planner cannot tell how common a prefix is:
 * walking the newest ids backwards is fast for a common word and reads the whole table for a rare
 * one (250 ms on 200,000 traders, 2 s on 150,000 consumers with their owners), the GIN index the
 * other way round. `recent` reads the newest RECENT_WINDOW rows of the company and keeps those that
 * match (a common word stops there); only when fewer than `limit` match — a rare word — `all` takes
 * every match from the GIN index, written so the planner stays off the id order (`id + 0`) and off
 * a bitmap AND with the company's whole index (`company_id + 0`).
 */
export async function newestMatches<Row>(
  limit: number,
  recent: () => Promise<Row[]>,
  all: () => Promise<Row[]>,
): Promise<Row[]> {
  const found = await recent();
  return found.length < limit ? all() : found;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** What was typed, and its words (which hold only letters and digits, so never tsquery syntax). */
export function searchText(raw: string): SearchText {
  const trimmed = raw.trim();
  return { raw: trimmed, words: trimmed.match(WORD) ?? [] };
}

/** The words of a search statement built once (`builtSelect`): its value is `SearchText.words`. */
export const WORDS = sql.placeholder('words');

/**
 * The condition that `vector` has every word typed, each a prefix (search while typing) in two forms,
 * either of which may match: stemmed by the Greek configuration ('αιτησεις' → 'αιτησ'), for
 * inflections; and only normalised (accents, case, ς), for a word cut short where the stemmer would cut
 * it differently than the whole word (the SQL function `search_query`). No words: no match.
 */
export const matchesWords = (vector: AnyPgColumn | SQL) => sql`${vector} @@ search_query(${WORDS})`;
