import { isValidRf } from './rf.ts';
import { isIsoDate } from './time.ts';
import { isValidIban, isValidVatNumber } from './traders.ts';

/**
 * The one rule engine of online forms (spec §5 'Online form'). A field's validation is one
 * rule string in the stored JSON, e.g. `required|email|max:120` or `required|decimal|min:0|max:1000.50`:
 * `required`, at most one type, `callback:<name>` and key:value rules (min, max, length, pattern).
 * The builder's preview, the public form and the server all run these same functions.
 */

/** The value types a rule string may name (the input element types that carry a format). */
export const ruleTypes = ['email', 'number', 'decimal', 'phone', 'date', 'afm', 'iban', 'rf', 'url'] as const;
export type RuleType = (typeof ruleTypes)[number];

/** Named checks a field may ask for with `callback:<name>`: a greek mobile, a 5-digit postal code. */
export const ruleCallbacks = ['greekMobile', 'postalCode', 'afm', 'iban', 'rf'] as const;
export type RuleCallback = (typeof ruleCallbacks)[number];

export interface Rules {
  required: boolean;
  type?: RuleType;
  callback?: RuleCallback;
  /** For number/decimal types the value's bounds (decimal strings); otherwise bounds on the length. */
  min?: string;
  max?: string;
  /** Exact length in characters. */
  length?: number;
  /** A regular expression the whole value must match (anchored by the engine). */
  pattern?: string;
}

export class RuleStringError extends Error {}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Splits on `|` that is not escaped as `\|` (a pattern may contain a bar). */
function splitRules(rule: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < rule.length; i++) {
    const char = rule[i];
    if (char === '\\' && rule[i + 1] === '|') {
      current += '|';
      i++;
    } else if (char === '|') {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Reads a rule string; an unknown rule or a bad value throws RuleStringError naming it. */
export function parseRules(rule: string | null | undefined): Rules {
  const rules: Rules = { required: false };
  for (const part of splitRules(rule ?? '')) {
    const colon = part.indexOf(':');
    const name = colon < 0 ? part : part.slice(0, colon);
    const value = colon < 0 ? '' : part.slice(colon + 1);
    if (name === 'required' && colon < 0) rules.required = true;
    else if ((ruleTypes as readonly string[]).includes(name) && colon < 0) {
      if (rules.type) throw new RuleStringError(`two types: ${rules.type}, ${name}`);
      rules.type = name as RuleType;
    } else if (name === 'callback' && (ruleCallbacks as readonly string[]).includes(value)) {
      rules.callback = value as RuleCallback;
    } else if ((name === 'min' || name === 'max') && DECIMAL.test(value)) rules[name] = value;
    else if (name === 'length' && /^\d{1,6}$/.test(value) && Number(value) > 0) rules.length = Number(value);
    else if (name === 'pattern' && value !== '') {
      try {
        new RegExp(value, 'u');
      } catch {
        throw new RuleStringError(`pattern: ${value}`);
      }
      rules.pattern = value;
    } else throw new RuleStringError(part);
  }
  return rules;
}

/** Writes rules back as one string, in a fixed order, so parse ∘ serialize is the identity. */
export function serializeRules(rules: Rules): string {
  const parts: string[] = [];
  if (rules.required) parts.push('required');
  if (rules.type) parts.push(rules.type);
  if (rules.callback) parts.push(`callback:${rules.callback}`);
  if (rules.min !== undefined) parts.push(`min:${rules.min}`);
  if (rules.max !== undefined) parts.push(`max:${rules.max}`);
  if (rules.length !== undefined) parts.push(`length:${rules.length}`);
  if (rules.pattern !== undefined) parts.push(`pattern:${rules.pattern.replaceAll('|', '\\|')}`);
  return parts.join('|');
}

/** True when the rule string parses. */
export function isValidRuleString(rule: string): boolean {
  try {
    parseRules(rule);
    return true;
  } catch {
    return false;
  }
}

/** Compares two decimal strings exactly (no binary floats): -1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  const parse = (v: string) => {
    const negative = v.startsWith('-');
    const [int = '0', frac = ''] = (negative ? v.slice(1) : v).split('.');
    return { negative, int: int.replace(/^0+(?=\d)/, ''), frac: frac.replace(/0+$/, '') };
  };
  const x = parse(a);
  const y = parse(b);
  const zero = (n: ReturnType<typeof parse>) => /^0*$/.test(n.int) && n.frac === '';
  const sign = (n: ReturnType<typeof parse>) => (zero(n) ? 0 : n.negative ? -1 : 1);
  const sx = sign(x);
  const sy = sign(y);
  if (sx !== sy) return sx < sy ? -1 : 1;
  if (sx === 0) return 0;
  let magnitude = 0;
  if (x.int.length !== y.int.length) magnitude = x.int.length < y.int.length ? -1 : 1;
  else if (x.int !== y.int) magnitude = x.int < y.int ? -1 : 1;
  else {
    const width = Math.max(x.frac.length, y.frac.length);
    const fx = x.frac.padEnd(width, '0');
    const fy = y.frac.padEnd(width, '0');
    magnitude = fx === fy ? 0 : fx < fy ? -1 : 1;
  }
  return sx * magnitude;
}

// ----- checking a value -----

export interface RuleError {
  key: string;
  params: Record<string, string | number>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const PHONE = /^\+?[0-9 ()-]{7,20}$/;
const URL_PATTERN = /^https?:\/\/[^\s]+$/i;

function typeError(type: RuleType, value: string): RuleError | null {
  switch (type) {
    case 'email':
      return EMAIL.test(value) ? null : { key: 'validation.email', params: {} };
    case 'number':
      return /^-?\d+$/.test(value) ? null : { key: 'validation.integer', params: {} };
    case 'decimal':
      return DECIMAL.test(value) ? null : { key: 'validation.number', params: {} };
    case 'phone':
      return PHONE.test(value) ? null : { key: 'validation.phone', params: {} };
    case 'date':
      return isIsoDate(value) ? null : { key: 'validation.date', params: {} };
    case 'afm':
      return isValidVatNumber(value) ? null : { key: 'validation.vatnumber', params: {} };
    case 'iban':
      return isValidIban(value) ? null : { key: 'validation.iban', params: {} };
    case 'rf':
      return isValidRf(value) ? null : { key: 'validation.rf', params: {} };
    case 'url':
      return URL_PATTERN.test(value) ? null : { key: 'validation.url', params: {} };
  }
}

function callbackError(callback: RuleCallback, value: string): RuleError | null {
  switch (callback) {
    case 'greekMobile':
      return /^(\+30|0030)?69\d{8}$/.test(value.replace(/[\s-]/g, ''))
        ? null
        : { key: 'validation.greek_mobile', params: {} };
    case 'postalCode':
      return /^\d{3} ?\d{2}$/.test(value) ? null : { key: 'validation.postal_code', params: {} };
    default:
      return typeError(callback, value);
  }
}

/** A value is empty when nothing was typed, ticked or attached. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/**
 * The first rule a value breaks, or null. Text rules apply to a string; a list (checkboxes, files)
 * is checked by `required` and by min/max on its number of entries.
 */
export function checkValue(rules: Rules, value: unknown): RuleError | null {
  if (isEmptyValue(value)) return rules.required ? { key: 'validation.required', params: {} } : null;
  if (Array.isArray(value)) {
    if (rules.min !== undefined && value.length < Number(rules.min)) {
      return { key: 'validation.min_items', params: { count: rules.min } };
    }
    if (rules.max !== undefined && value.length > Number(rules.max)) {
      return { key: 'validation.max_items', params: { count: rules.max } };
    }
    return null;
  }
  if (typeof value === 'boolean') return null;
  if (typeof value !== 'string') return { key: 'validation.invalid', params: {} };
  const text = value.trim();
  if (rules.type) {
    const error = typeError(rules.type, text);
    if (error) return error;
  }
  if (rules.callback) {
    const error = callbackError(rules.callback, text);
    if (error) return error;
  }
  const numeric = rules.type === 'number' || rules.type === 'decimal';
  if (rules.min !== undefined) {
    if (numeric && compareDecimal(text, rules.min) < 0) {
      return { key: 'validation.min_value', params: { value: rules.min } };
    }
    if (!numeric && [...text].length < Number(rules.min)) {
      return { key: 'validation.min_length', params: { length: rules.min } };
    }
  }
  if (rules.max !== undefined) {
    if (numeric && compareDecimal(text, rules.max) > 0) {
      return { key: 'validation.max_value', params: { value: rules.max } };
    }
    if (!numeric && [...text].length > Number(rules.max)) {
      return { key: 'validation.max_length', params: { length: rules.max } };
    }
  }
  if (rules.length !== undefined && [...text].length !== rules.length) {
    return { key: 'validation.exact_length', params: { length: rules.length } };
  }
  if (rules.pattern !== undefined && !new RegExp(`^(?:${rules.pattern})$`, 'u').test(text)) {
    return { key: 'validation.pattern', params: {} };
  }
  return null;
}
