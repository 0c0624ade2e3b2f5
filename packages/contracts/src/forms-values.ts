import { z } from 'zod';
import type { FieldError } from './errors.ts';
import { checkValue, compareDecimal, isEmptyValue } from './forms-rules.ts';
import {
  type Conditional,
  elementRules,
  FIELD_NAME_PATTERN,
  type FormElement,
  type FormRow,
  type FormStructure,
  inputElements,
} from './forms-structure.ts';
import { isIsoDate } from './time.ts';

/**
 * Online forms: the values of a submission, the conditionals that show or hide rows and elements,
 * and the checks of a submission.
 */

export const fileRefSchema = z.object({
  /** The upload's token, given by the upload endpoint. */
  id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  name: z.string().max(255),
  size: z.number().int().nonnegative(),
  type: z.string().max(120),
});
export type FileRef = z.infer<typeof fileRefSchema>;

export const fieldValueSchema = z.union([
  z.string().max(20_000),
  z.boolean(),
  z.array(z.string().max(200)).max(200),
  z.array(fileRefSchema).max(10),
]);
export type FieldValue = z.infer<typeof fieldValueSchema>;
export const submissionValuesSchema = z.record(z.string().regex(FIELD_NAME_PATTERN), fieldValueSchema);
export type SubmissionValues = Record<string, FieldValue>;

function asText(value: FieldValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value.trim();
  return '';
}

/** Compares numbers exactly, dates as dates; anything else does not compare. */
function compare(left: string, right: string): number | null {
  if (/^-?\d+(\.\d+)?$/.test(left) && /^-?\d+(\.\d+)?$/.test(right)) return compareDecimal(left, right);
  if (isIsoDate(left) && isIsoDate(right)) return left === right ? 0 : left < right ? -1 : 1;
  return null;
}

/** Does a conditional hold for a value? A list (checkboxes) equals or contains each of its entries. */
export function conditionHolds(cond: Conditional, value: FieldValue | undefined): boolean {
  if (Array.isArray(value)) {
    const entries = value.map((v) => (typeof v === 'string' ? v : v.name));
    if (cond.operator === 'equals' || cond.operator === 'contains') return entries.includes(cond.value);
    if (cond.operator === 'notEquals') return !entries.includes(cond.value);
    return false;
  }
  const text = asText(value);
  switch (cond.operator) {
    case 'equals':
      return text === cond.value;
    case 'notEquals':
      return text !== cond.value;
    case 'contains':
      return cond.value !== '' && text.toLocaleLowerCase('el').includes(cond.value.toLocaleLowerCase('el'));
    default: {
      if (text === '') return false;
      const order = compare(text, cond.value);
      if (order === null) return false;
      return { gt: order > 0, gte: order >= 0, lt: order < 0, lte: order <= 0, eq: order === 0 }[
        cond.operator
      ];
    }
  }
}

/**
 * Which input fields are shown for these values: a row or element is shown when all its
 * conditionals hold, looking only at fields that are themselves shown (a cycle hides them).
 */
export function visibleFields(structure: FormStructure, values: SubmissionValues): Set<string> {
  const owner = new Map<string, { row: FormRow; element: FormElement }>();
  for (const entry of inputElements(structure)) {
    if (entry.element.options.field) owner.set(entry.element.options.field, entry);
  }
  const memo = new Map<string, boolean>();
  const visiting = new Set<string>();
  const shown = (name: string): boolean => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const entry = owner.get(name);
    if (!entry || visiting.has(name)) return false;
    visiting.add(name);
    const holds = (cond: Conditional) =>
      conditionHolds(cond, shown(cond.field) ? values[cond.field] : undefined);
    const result = entry.row.conditionals.every(holds) && entry.element.conditionals.every(holds);
    visiting.delete(name);
    memo.set(name, result);
    return result;
  };
  return new Set([...owner.keys()].filter(shown));
}

/** Is a row shown (for rows of headings and paragraphs too)? */
export function rowShown(row: FormRow, values: SubmissionValues, visible: Set<string>): boolean {
  return row.conditionals.every((cond) =>
    conditionHolds(cond, visible.has(cond.field) ? values[cond.field] : undefined),
  );
}

function valueShapeError(element: FormElement, value: FieldValue): FieldError['key'] | null {
  const items = element.items.map((i) => i.value);
  switch (element.type) {
    case 'select':
    case 'radio':
      return typeof value === 'string' && (value === '' || items.includes(value))
        ? null
        : 'validation.choice';
    case 'checkbox':
      if (element.items.length === 0) return typeof value === 'boolean' ? null : 'validation.boolean';
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && items.includes(v))
        ? null
        : 'validation.choice';
    case 'file':
      return Array.isArray(value) && value.every((v) => typeof v === 'object') ? null : 'validation.invalid';
    default:
      return typeof value === 'string' ? null : 'validation.invalid';
  }
}

/**
 * Checks a submission against its form (client and server alike): only the shown input fields are
 * validated and kept, trimmed; hidden and unknown fields are dropped. File limits (size, type) are
 * checked here on what the client reports and again by the server on the stored content.
 */
export function validateSubmission(
  structure: FormStructure,
  values: SubmissionValues,
): { errors: FieldError[]; values: SubmissionValues } {
  const visible = visibleFields(structure, values);
  const errors: FieldError[] = [];
  const kept: SubmissionValues = {};
  for (const { element } of inputElements(structure)) {
    const name = element.options.field;
    if (!name || !visible.has(name)) continue;
    const raw = values[name];
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (value !== undefined && !isEmptyValue(value)) {
      const shape = valueShapeError(element, value);
      if (shape) {
        errors.push({ field: name, key: shape, params: {} });
        continue;
      }
    }
    const error = checkValue(elementRules(element), value);
    if (error) {
      errors.push({ field: name, ...error });
      continue;
    }
    if (element.type === 'file' && Array.isArray(value)) {
      const fileError = fileLimitError(element, value as FileRef[]);
      if (fileError) {
        errors.push(fileError);
        continue;
      }
    }
    if (value !== undefined && !isEmptyValue(value)) kept[name] = value;
  }
  return { errors, values: kept };
}

/** Default upload limits of a file element. */
export const FORM_FILE_DEFAULTS = {
  maxSizeMb: 10,
  accept: ['pdf', 'jpg', 'jpeg', 'png'],
  maxFiles: 5,
} as const;

export function fileLimitError(element: FormElement, files: FileRef[]): FieldError | null {
  const maxSizeMb = element.options.maxSizeMb ?? FORM_FILE_DEFAULTS.maxSizeMb;
  const accept: readonly string[] = element.options.accept ?? FORM_FILE_DEFAULTS.accept;
  const maxFiles = element.options.maxFiles ?? FORM_FILE_DEFAULTS.maxFiles;
  const field = element.options.field ?? '';
  if (files.length > maxFiles) return { field, key: 'validation.max_items', params: { count: maxFiles } };
  for (const file of files) {
    if (file.size > maxSizeMb * 1024 * 1024) {
      return { field, key: 'validation.file_too_large', params: { name: file.name, mb: maxSizeMb } };
    }
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!accept.includes(extension)) {
      return { field, key: 'validation.file_type', params: { name: file.name, types: accept.join(', ') } };
    }
  }
  return null;
}
