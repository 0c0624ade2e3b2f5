import { z } from 'zod';
import { idSchema } from './db.ts';

/** Level types of the consumer encoding code (spec §3 'Entity types'). */
export const encodingLevelTypes = {
  sector: 1,
  route: 2,
  department: 3,
  area: 4,
  address: 5,
  building: 6,
  customField: 7,
} as const;
export type EncodingLevelType = (typeof encodingLevelTypes)[keyof typeof encodingLevelTypes];
export const encodingLevelTypeIds = Object.values(encodingLevelTypes);

/** At most five levels (spec §9), each at most this many characters. */
export const ENCODING_MAX_LEVELS = 5;
export const ENCODING_MAX_LEVEL_LENGTH = 12;

const levelLength = z.number().int().min(1).max(ENCODING_MAX_LEVEL_LENGTH).nullable();
const levelType = z
  .number()
  .int()
  .refine((v) => (encodingLevelTypeIds as number[]).includes(v), { message: 'validation.invalid' })
  .nullable();

/**
 * The consumer encoding code definition as spec §3 names it: `levels`, the length of each level
 * (`level1`…`level5`), its type (`leveltable1`…) and, for a custom field level, the field
 * (`cfieldid1`…), and the separator between the parts.
 */
export const encodingCodeDefinitionSchema = z
  .object({
    // `abort`: zod runs the object's refinement below even after a failed check of a field; a
    // `levels` of 2^31 would have it loop 2^31 times.
    levels: z.number().int().min(1, { abort: true }).max(ENCODING_MAX_LEVELS, { abort: true }),
    level1: levelLength,
    level2: levelLength,
    level3: levelLength,
    level4: levelLength,
    level5: levelLength,
    leveltable1: levelType,
    leveltable2: levelType,
    leveltable3: levelType,
    leveltable4: levelType,
    leveltable5: levelType,
    cfieldid1: idSchema.nullable(),
    cfieldid2: idSchema.nullable(),
    cfieldid3: idSchema.nullable(),
    cfieldid4: idSchema.nullable(),
    cfieldid5: idSchema.nullable(),
    // Digits in a separator would make a code ambiguous with the last (numeric) part.
    separator: z
      .string()
      .max(3)
      .regex(/^[^\d\s]*$/, { message: 'validation.encoding_separator' }),
  })
  .superRefine((def, ctx) => {
    for (let n = 1; n <= def.levels; n++) {
      const key = (name: string) => `${name}${n}` as keyof typeof def;
      if (def[key('level')] === null)
        ctx.addIssue({ code: 'custom', path: [`level${n}`], message: 'validation.required' });
      // The last level is the consumer's number within the others: it has no type of its own.
      if (n === def.levels) continue;
      const type = def[key('leveltable')];
      if (type === null)
        ctx.addIssue({ code: 'custom', path: [`leveltable${n}`], message: 'validation.required' });
      if (type === encodingLevelTypes.customField && def[key('cfieldid')] === null)
        ctx.addIssue({ code: 'custom', path: [`cfieldid${n}`], message: 'validation.required' });
    }
  });
export type EncodingCodeDefinition = z.infer<typeof encodingCodeDefinitionSchema>;

/** One level of a definition. */
export interface EncodingLevel {
  /** 1-based. */
  level: number;
  length: number;
  /** Null for the last level: the consumer's number, digits only. */
  type: EncodingLevelType | null;
  cfieldid: number | null;
}

/** The definition's levels in order (those up to `levels`). */
export function encodingLevels(def: EncodingCodeDefinition): EncodingLevel[] {
  const flat = def as unknown as Record<string, number | null>;
  return Array.from({ length: def.levels }, (_, i) => ({
    level: i + 1,
    length: flat[`level${i + 1}`] ?? 1,
    type: i + 1 === def.levels ? null : ((flat[`leveltable${i + 1}`] ?? null) as EncodingLevelType | null),
    cfieldid: flat[`cfieldid${i + 1}`] ?? null,
  }));
}

/** The mask of a level: 'X' repeated per its length (spec §5). */
export const levelMask = (length: number): string => 'X'.repeat(length);

/** The mask of the whole code, the levels' masks joined by the separator. */
export const encodingMask = (def: EncodingCodeDefinition): string =>
  encodingLevels(def)
    .map((l) => levelMask(l.length))
    .join(def.separator);

/** A part as typed, kept to what its level accepts: the last level digits only (no leading zeros); each cut to its length. */
export function cutPart(value: string, length: number, last: boolean): string {
  // The number keeps no leading zeros: '007' and '7' are one consumer number, one code.
  const kept = last ? value.replace(/\D/g, '').replace(/^0+(?=\d)/, '') : value;
  return kept.slice(0, length);
}

/** Left-pads a part with spaces to its level length (spec §5 'preview'). */
export const padPart = (value: string, length: number): string => value.padStart(length, ' ');

/** The parts as typed, cut to their levels (one entry per level; missing ones are empty). */
export function cutParts(def: EncodingCodeDefinition, parts: readonly string[]): string[] {
  const levels = encodingLevels(def);
  return levels.map((l, i) => cutPart(parts[i] ?? '', l.length, i === levels.length - 1));
}

/** The preview of the code: every part cut, padded on the left to its length, joined by the separator. */
export function previewCode(def: EncodingCodeDefinition, parts: readonly string[]): string {
  const levels = encodingLevels(def);
  return cutParts(def, parts)
    .map((part, i) => padPart(part, levels[i]?.length ?? 0))
    .join(def.separator);
}

/**
 * A stored code as people write it: the padding that makes codes sort ("01-001-  101") left out
 * ("01-001-101"). Screens, exports and PDFs show this; the stored form only sorts and keys.
 */
export const writtenCode = (code: string): string => code.replace(/\s+/g, '');

/**
 * What identifies a code however it was typed: with or without separators and padding, in any case
 * ("01-001-101", "01001101" and "01-001-  101" are one code).
 */
export const codeKey = (text: string): string => text.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();

const filled = (part: string | undefined) => (part ?? '').trim() !== '';

/** The code counts as correct only when every level has a value (spec §4). */
export const isCodeComplete = (def: EncodingCodeDefinition, parts: readonly string[]): boolean =>
  cutParts(def, parts).every(filled);

/** Every part before the last is filled and the last is empty: time to ask for the recommended last part. */
export function wantsRecommendedLastPart(def: EncodingCodeDefinition, parts: readonly string[]): boolean {
  const cut = cutParts(def, parts);
  return cut.slice(0, -1).every(filled) && !filled(cut[cut.length - 1]);
}

/**
 * The parts of a stored (padded) code, or null when the code does not fit the definition: the
 * separator between exactly as many parts as levels, each exactly its level's length, the last digits.
 */
export function splitCode(def: EncodingCodeDefinition, code: string): string[] | null {
  const levels = encodingLevels(def);
  let pieces: string[];
  if (def.separator) {
    pieces = code.split(def.separator);
  } else {
    pieces = [];
    let at = 0;
    for (const l of levels) {
      pieces.push(code.slice(at, at + l.length));
      at += l.length;
    }
    if (at !== code.length) return null;
  }
  if (pieces.length !== levels.length) return null;
  const parts: string[] = [];
  for (const [i, l] of levels.entries()) {
    const piece = pieces[i] ?? '';
    if (piece.length !== l.length) return null;
    const part = piece.trimStart();
    if (part === '' || part !== part.trim()) return null;
    if (i === levels.length - 1 && !/^\d+$/.test(part)) return null;
    parts.push(part);
  }
  return parts;
}

/**
 * The last part that follows the largest one already used under the same preceding parts
 * (`usedLastParts`), left as digits; null when the level is full (all nines).
 */
export function nextLastPart(length: number, usedLastParts: readonly string[]): string | null {
  let max = 0n;
  for (const used of usedLastParts) {
    const digits = used.trim();
    if (/^\d+$/.test(digits) && BigInt(digits) > max) max = BigInt(digits);
  }
  const next = (max + 1n).toString();
  return next.length > length ? null : next;
}
