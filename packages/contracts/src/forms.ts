import { z } from 'zod';
import { auditFieldsSchema } from './audit.ts';
import { idSchema } from './db.ts';
import type { FieldError } from './errors.ts';
import {
  checkValue,
  compareDecimal,
  isEmptyValue,
  isValidRuleString,
  parseRules,
  type Rules,
} from './forms-rules.ts';
import type { EntityCatalog } from './list.ts';
import { isIsoDate } from './traders.ts';

export * from './forms-rules.ts';

/**
 * Online forms (ηλεκτρονικές αιτήσεις, spec §2 builder, §3 Online form, §5; issue 14): the stored
 * structure the builder writes (`api`, JSON text of layout rows), the conditionals that show or hide
 * rows and elements, the checks of a submission, and the statuses a submission moves through.
 */

// ----- the stored structure -----

/** Input elements carry a value; titled items (headings, paragraphs) only show text. */
export const inputElementTypes = [
  'text',
  'textarea',
  'number',
  'decimal',
  'email',
  'phone',
  'date',
  'select',
  'radio',
  'checkbox',
  'file',
  'afm',
  'iban',
  'autocomplete',
] as const;
export const titledElementTypes = ['heading', 'paragraph'] as const;
export const elementTypes = [...inputElementTypes, ...titledElementTypes] as const;
export type ElementType = (typeof elementTypes)[number];
export type InputElementType = (typeof inputElementTypes)[number];

/** The rule an element's type implies, added to its own rule string. */
const impliedType: Partial<Record<ElementType, Rules['type']>> = {
  number: 'number',
  decimal: 'decimal',
  email: 'email',
  phone: 'phone',
  date: 'date',
  afm: 'afm',
  iban: 'iban',
};

/** Spec §3 comparison operators plus equals / not equals / contains on what was typed or chosen. */
export const conditionalOperators = [
  'equals',
  'notEquals',
  'contains',
  'gt',
  'gte',
  'lt',
  'lte',
  'eq',
] as const;
export type ConditionalOperator = (typeof conditionalOperators)[number];

export const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const fieldName = z.string().regex(FIELD_NAME_PATTERN, 'dynamicForms.field_name');

export const conditionalSchema = z.object({
  field: fieldName,
  operator: z.enum(conditionalOperators),
  value: z.string().max(500),
});
export type Conditional = z.infer<typeof conditionalSchema>;

export const elementItemSchema = z.object({
  value: z.string().min(1).max(200),
  label: z.string().max(500),
});

/** Where an API autocomplete finds its choices: the streets of the company's addresses table. */
export const autocompleteSources = ['streets'] as const;

export const elementOptionsSchema = z.object({
  /** The field's name: the key of its value in a submission (input elements). */
  field: fieldName.optional(),
  label: z.string().max(500).optional(),
  placeholder: z.string().max(500).optional(),
  help: z.string().max(2000).optional(),
  /** A heading's or paragraph's text. */
  text: z.string().max(10_000).optional(),
  /** File uploads: the largest file in MB and the accepted extensions (e.g. ['pdf', 'jpg']). */
  maxSizeMb: z.number().positive().max(50).optional(),
  accept: z
    .array(z.string().regex(/^[a-z0-9]{1,8}$/))
    .max(20)
    .optional(),
  maxFiles: z.number().int().min(1).max(10).optional(),
  source: z.enum(autocompleteSources).optional(),
});

export const formElementSchema = z
  .object({
    type: z.enum(elementTypes),
    options: elementOptionsSchema,
    items: z.array(elementItemSchema).max(200).default([]),
    validation: z.string().max(1000).default('').refine(isValidRuleString, 'dynamicForms.bad_rule'),
    conditionals: z.array(conditionalSchema).max(20).default([]),
  })
  .refine(
    (e) => !(inputElementTypes as readonly string[]).includes(e.type) || e.options.field !== undefined,
    {
      message: 'dynamicForms.field_required',
      path: ['options', 'field'],
    },
  )
  .refine((e) => !['select', 'radio'].includes(e.type) || e.items.length > 0, {
    message: 'dynamicForms.items_required',
    path: ['items'],
  });
export type FormElement = z.infer<typeof formElementSchema>;

export const rowTypes = ['inputLayout', 'titledLayout'] as const;
export const rowThemes = ['Plain', 'Card', 'Highlighted'] as const;

const ELEMENTS_KEY = /^elements([1-9]\d?)$/;

/**
 * A layout row (spec §2): type, name, showTitle, theme, grid 1–4 and conditionals, with its elements
 * as `elements1…elementsN` (one list per column; spec §9 each column 12 / grid wide).
 */
export const formRowSchema = z
  .object({
    type: z.enum(rowTypes),
    name: z.string().max(300).default(''),
    showTitle: z.boolean().default(false),
    theme: z.enum(rowThemes).default('Plain'),
    grid: z.number().int().min(1).max(4),
    conditionals: z.array(conditionalSchema).max(20).default([]),
  })
  .catchall(z.array(formElementSchema).max(100))
  .superRefine((row, ctx) => {
    for (const key of Object.keys(row)) {
      if (['type', 'name', 'showTitle', 'theme', 'grid', 'conditionals'].includes(key)) continue;
      const match = ELEMENTS_KEY.exec(key);
      if (!match || Number(match[1]) > row.grid) {
        ctx.addIssue({ code: 'custom', message: 'dynamicForms.bad_column', path: [key] });
      }
    }
  });
/** A stored layout row; its columns are `elements1…elementsN`. */
export interface FormRow {
  type: (typeof rowTypes)[number];
  name: string;
  showTitle: boolean;
  theme: (typeof rowThemes)[number];
  grid: number;
  conditionals: Conditional[];
  [column: `elements${number}`]: FormElement[] | undefined;
}

export const formStructureSchema = z.array(formRowSchema).max(200);
export type FormStructure = FormRow[];

export function isInput(element: { type: string }): boolean {
  return (inputElementTypes as readonly string[]).includes(element.type);
}

/** The elements of a row, column by column (elements1, elements2, …). */
export function rowColumns(row: FormRow): FormElement[][] {
  const columns: FormElement[][] = [];
  for (let i = 1; i <= row.grid; i++) {
    columns.push(row[`elements${i}`] ?? []);
  }
  return columns;
}

/** Every input element with its row, in reading order. */
export function inputElements(structure: FormStructure): { row: FormRow; element: FormElement }[] {
  return structure.flatMap((row) =>
    rowColumns(row)
      .flat()
      .filter(isInput)
      .map((element) => ({ row, element })),
  );
}

/** The effective rules of an element: its rule string plus the type its element type implies. */
export function elementRules(element: FormElement): Rules {
  const rules = parseRules(element.validation);
  const implied = impliedType[element.type];
  return implied && !rules.type ? { ...rules, type: implied } : rules;
}

/**
 * Checks of the structure itself: a field name used by two or more input elements
 * (`dynamicForms.item_already_exists`, spec §5) and conditionals naming no field of the form.
 * Paths name the row and element (`rows.0.elements2.1.options.field`).
 */
export function structureErrors(structure: FormStructure): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  const places: { path: string; element: FormElement }[] = [];
  structure.forEach((row, r) => {
    rowColumns(row).forEach((column, c) => {
      column.forEach((element, e) => {
        places.push({ path: `rows.${r}.elements${c + 1}.${e}`, element });
      });
    });
  });
  for (const { element } of places) {
    const name = isInput(element) ? element.options.field : undefined;
    if (name) seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  for (const { path, element } of places) {
    const name = isInput(element) ? element.options.field : undefined;
    if (name && (seen.get(name) ?? 0) > 1) {
      errors.push({
        field: `${path}.options.field`,
        key: 'dynamicForms.item_already_exists',
        params: { name },
      });
    }
    element.conditionals.forEach((cond, i) => {
      if (!seen.has(cond.field)) {
        errors.push({
          field: `${path}.conditionals.${i}.field`,
          key: 'dynamicForms.unknown_field',
          params: { name: cond.field },
        });
      }
    });
  }
  structure.forEach((row, r) => {
    row.conditionals.forEach((cond, i) => {
      if (!seen.has(cond.field)) {
        errors.push({
          field: `rows.${r}.conditionals.${i}.field`,
          key: 'dynamicForms.unknown_field',
          params: { name: cond.field },
        });
      }
    });
  });
  return errors;
}

/** Reads and checks the `api` JSON text of a form; throws nothing, answers the structure or errors. */
export function parseStructure(
  api: string,
): { ok: true; structure: FormStructure } | { ok: false; errors: FieldError[] } {
  let json: unknown;
  try {
    json = JSON.parse(api);
  } catch {
    return { ok: false, errors: [{ field: 'api', key: 'dynamicForms.bad_json', params: {} }] };
  }
  const parsed = formStructureSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => ({
        field: ['rows', ...issue.path.map(String)].join('.'),
        key: issue.message.startsWith('dynamicForms.') ? issue.message : 'validation.invalid',
        params: {},
      })),
    };
  }
  // The schema's catchall types the columns loosely; FormRow names them elements1…N.
  const structure = parsed.data as unknown as FormStructure;
  const errors = structureErrors(structure);
  return errors.length ? { ok: false, errors } : { ok: true, structure };
}

// ----- values and conditionals -----

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

// ----- submissions: statuses and transitions -----

/** Spec §3: 0 open, 1 confirmed, 2 in progress, 3 resolved, 4 closed, 5 reopened, 6 duplicate. */
export const submissionStatuses = [0, 1, 2, 3, 4, 5, 6] as const;
export type SubmissionStatus = (typeof submissionStatuses)[number];

/** What a review desk may do next from each status (spec §4 leaves them to us; the server enforces). */
export const submissionTransitions: Record<SubmissionStatus, readonly SubmissionStatus[]> = {
  0: [1, 2, 4, 6],
  1: [2, 3, 4, 6],
  2: [3, 4],
  3: [4, 5],
  4: [5],
  5: [2, 3, 4],
  6: [5],
};

export function canMoveSubmission(from: number, to: number): boolean {
  return (submissionTransitions[from as SubmissionStatus] ?? []).includes(to as SubmissionStatus);
}

// ----- the form's settings and the API shapes -----

/** A form's publication status: 0 draft (only staff see it), 1 published. */
export const formStatuses = [0, 1] as const;
/** Spec §3 form languages: 0 Greek, 1 English. */
export const formLanguages = [0, 1] as const;
/** Spec §3 save methods: 0 insert into the database, 1 also send an e-mail. */
export const formSaveMethods = [0, 1] as const;
/** Spec §3 submit methods: 0 ajax, 1 form data. */
export const formSubmitMethods = [0, 1] as const;

const optionalText = (max: number) => z.string().trim().max(max).nullable().default(null);
const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .regex(/^(https?:\/\/|\/)[^\s]*$/, 'validation.url')
  .nullable()
  .default(null);
const decimalAmount = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, 'validation.decimal')
  .nullable()
  .default(null);

/** The generated public id of a form (`/forms/{form_id}`). */
export const FORM_ID_PATTERN = /^[a-z0-9][a-z0-9-]{2,63}$/;

/** The body of PUT /api/onlineForms (spec §7): the form with `api` as JSON text, parentForm as its id. */
export const saveFormSchema = z
  .object({
    id: idSchema.nullable().default(null),
    form_id: z.string().trim().toLowerCase().regex(FORM_ID_PATTERN, 'dynamicForms.form_id'),
    title: z.string().trim().min(1).max(300),
    language: z.union([z.literal(0), z.literal(1)]).default(0),
    description: optionalText(5000),
    submitMethod: z.union([z.literal(0), z.literal(1)]).default(0),
    saveMethod: z.union([z.literal(0), z.literal(1)]).default(0),
    /** Where save method 1 sends each submission. */
    mailTo: z
      .string()
      .trim()
      .max(300)
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, 'validation.email')
      .nullable()
      .default(null),
    successNote: optionalText(5000),
    errorNote: optionalText(5000),
    successUrl: optionalUrl,
    errorUrl: optionalUrl,
    status: z.union([z.literal(0), z.literal(1)]).default(0),
    assign_to: idSchema.nullable().default(null),
    is_online: z.boolean().default(false),
    is_payment: z.boolean().default(false),
    /** The fee a payment form asks for (euro, decimal string). */
    fee: decimalAmount,
    auto_nr: z.boolean().default(false),
    book: idSchema.nullable().default(null),
    disabled: z.boolean().default(false),
    readonly: z.boolean().default(false),
    printurl: optionalUrl,
    parentForm: idSchema.nullable().default(null),
    api: z.string().max(900_000),
  })
  .refine((f) => !f.auto_nr || f.book !== null, { message: 'validation.required', path: ['book'] })
  .refine((f) => f.saveMethod === 0 || f.mailTo !== null, {
    message: 'validation.required',
    path: ['mailTo'],
  })
  .refine((f) => !f.is_payment || f.fee !== null, { message: 'validation.required', path: ['fee'] });
export type SaveForm = z.input<typeof saveFormSchema>;

const zeroOrOne = z.union([z.literal(0), z.literal(1)]);

export const onlineFormSchema = z.object({
  id: idSchema.nullable(),
  form_id: z.string(),
  title: z.string(),
  language: zeroOrOne,
  description: z.string().nullable(),
  submitMethod: zeroOrOne,
  saveMethod: zeroOrOne,
  mailTo: z.string().nullable(),
  successNote: z.string().nullable(),
  errorNote: z.string().nullable(),
  successUrl: z.string().nullable(),
  errorUrl: z.string().nullable(),
  status: zeroOrOne,
  assign_to: z.number().int().nullable(),
  is_online: z.boolean(),
  is_payment: z.boolean(),
  fee: z.string().nullable(),
  auto_nr: z.boolean(),
  book: z.number().int().nullable(),
  disabled: z.boolean(),
  readonly: z.boolean(),
  printurl: z.string().nullable(),
  parentForm: z.number().int().nullable(),
  api: z.string(),
  /** The published version of the structure submissions are made with now (0 before publishing). */
  version: z.number().int(),
  audit: auditFieldsSchema.nullable(),
});
export type OnlineForm = z.infer<typeof onlineFormSchema>;

/** The form as a citizen's browser needs it (no staff settings). */
export const publicFormSchema = z.object({
  form_id: z.string(),
  title: z.string(),
  language: z.number().int(),
  description: z.string().nullable(),
  successNote: z.string().nullable(),
  errorNote: z.string().nullable(),
  successUrl: z.string().nullable(),
  errorUrl: z.string().nullable(),
  is_payment: z.boolean(),
  fee: z.string().nullable(),
  /** Shown for reading only: no submissions (spec §3 'readonly'). */
  readonly: z.boolean(),
  version: z.number().int(),
  api: z.string(),
  companyName: z.string(),
});
export type PublicForm = z.infer<typeof publicFormSchema>;

/** A citizen's submission: the values, and the honeypot field a person never fills. */
export const publicSubmitSchema = z.object({
  values: submissionValuesSchema,
  website: z.string().max(500).optional(),
  /** A draft is kept for later under its private token instead of being submitted. */
  draft: z.boolean().default(false),
  draftToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,64}$/)
    .optional(),
});

export const publicSubmitResultSchema = z.object({
  /** Submitted: the submission's reference; a draft: its private token. */
  reference: z.string().nullable(),
  draftToken: z.string().nullable(),
  protocolNumber: z.string().nullable(),
  fee: z.string().nullable(),
  rfCode: z.string().nullable(),
  successNote: z.string().nullable(),
  successUrl: z.string().nullable(),
});
export type PublicSubmitResult = z.infer<typeof publicSubmitResultSchema>;

export const submissionHistorySchema = z.object({
  id: z.number().int(),
  fromStatus: z.number().int().nullable(),
  toStatus: z.number().int(),
  assignedTo: z.number().int().nullable(),
  assignedGroupId: z.number().int().nullable(),
  comments: z.string().nullable(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  createdAt: z.string(),
});

export const submissionSchema = z.object({
  id: z.number().int(),
  formId: z.number().int(),
  formTitle: z.string(),
  formVersion: z.number().int(),
  /** The structure (JSON text) of the version the citizen filled in. */
  api: z.string(),
  reference: z.string(),
  values: submissionValuesSchema,
  status: z.number().int(),
  allowedStatuses: z.array(z.number().int()),
  assignedTo: z.number().int().nullable(),
  assignedGroupId: z.number().int().nullable(),
  duplicateOf: z.number().int().nullable(),
  documentId: z.number().int().nullable(),
  protocolNumber: z.string().nullable(),
  caseId: z.number().int().nullable(),
  traderId: z.number().int().nullable(),
  rfCode: z.string().nullable(),
  fee: z.string().nullable(),
  submittedAt: z.string(),
  /** The form's own print address ({id} and {reference} are filled in), else the built-in PDF. */
  printurl: z.string().nullable(),
  history: z.array(submissionHistorySchema),
});
export type Submission = z.infer<typeof submissionSchema>;

/** PUT /api/onlineForms/submissions: the whole submission; status changes carry a comment. */
export const saveSubmissionSchema = z
  .object({
    id: idSchema,
    values: submissionValuesSchema,
    status: z.number().int().min(0).max(6),
    assignedTo: idSchema.nullable().default(null),
    /** A group (department) of the company; its members are notified. */
    assignedGroupId: idSchema.nullable().default(null),
    duplicateOf: idSchema.nullable().default(null),
    caseId: idSchema.nullable().default(null),
    comments: z.string().trim().max(4000).nullable().default(null),
  })
  .refine((s) => s.status !== 6 || s.duplicateOf !== null, {
    message: 'validation.required',
    path: ['duplicateOf'],
  })
  .refine((s) => s.duplicateOf === null || s.duplicateOf !== s.id, {
    message: 'validation.invalid',
    path: ['duplicateOf'],
  });
export type SaveSubmission = z.input<typeof saveSubmissionSchema>;

// ----- lists -----

export const onlineFormsCatalog = {
  entity: 'onlineForms',
  titleKey: 'onlineForms.title',
  defaultSort: { field: 'id', desc: true },
  fields: [
    {
      id: 'id',
      type: 'number',
      labelKey: 'onlineForms.field.id',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 80,
    },
    {
      id: 'form_id',
      type: 'text',
      labelKey: 'onlineForms.field.form_id',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 200,
    },
    {
      id: 'title',
      type: 'text',
      labelKey: 'onlineForms.field.title',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 320,
    },
    {
      id: 'status',
      type: 'enum',
      labelKey: 'onlineForms.field.status',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 130,
      options: formStatuses.map((s) => ({ value: String(s), labelKey: `onlineForms.status.${s}` })),
    },
    {
      id: 'is_online',
      type: 'boolean',
      labelKey: 'onlineForms.field.is_online',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 110,
    },
    {
      id: 'auto_nr',
      type: 'boolean',
      labelKey: 'onlineForms.field.auto_nr',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 110,
    },
    {
      id: 'disabled',
      type: 'boolean',
      labelKey: 'onlineForms.field.disabled',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 110,
    },
    {
      id: 'version',
      type: 'number',
      labelKey: 'onlineForms.field.version',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 90,
    },
    {
      id: 'submissions',
      type: 'number',
      labelKey: 'onlineForms.field.submissions',
      sortable: false,
      filters: [],
      exportable: true,
      width: 110,
    },
  ],
} as const satisfies EntityCatalog;

export const onlineFormListItemSchema = z.object({
  id: z.number().int(),
  form_id: z.string(),
  title: z.string(),
  status: z.number().int(),
  is_online: z.boolean(),
  auto_nr: z.boolean(),
  disabled: z.boolean(),
  version: z.number().int(),
  submissions: z.number().int(),
});
export type OnlineFormListItem = z.infer<typeof onlineFormListItemSchema>;

export const submissionsCatalog = {
  entity: 'onlineFormSubmissions',
  titleKey: 'onlineForms.submissions.title',
  defaultSort: { field: 'submittedAt', desc: true },
  fields: [
    {
      id: 'id',
      type: 'number',
      labelKey: 'onlineForms.submission.id',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 80,
    },
    {
      id: 'reference',
      type: 'text',
      labelKey: 'onlineForms.submission.reference',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 150,
    },
    {
      id: 'formId',
      type: 'number',
      labelKey: 'onlineForms.submission.formId',
      sortable: true,
      filters: ['eq'],
      exportable: false,
      hiddenByDefault: true,
      width: 80,
    },
    {
      id: 'formTitle',
      type: 'text',
      labelKey: 'onlineForms.submission.formTitle',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 280,
    },
    {
      id: 'applicant',
      type: 'text',
      labelKey: 'onlineForms.submission.applicant',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 220,
    },
    {
      id: 'status',
      type: 'enum',
      labelKey: 'onlineForms.submission.status',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 140,
      options: submissionStatuses.map((s) => ({
        value: String(s),
        labelKey: `onlineForms.submissionStatus.${s}`,
      })),
    },
    {
      id: 'protocolNumber',
      type: 'text',
      labelKey: 'onlineForms.submission.protocolNumber',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 140,
    },
    {
      id: 'assignedTo',
      type: 'number',
      labelKey: 'onlineForms.submission.assignedTo',
      sortable: true,
      filters: ['eq'],
      exportable: false,
      hiddenByDefault: true,
      width: 100,
    },
    {
      id: 'submittedAt',
      type: 'date',
      labelKey: 'onlineForms.submission.submittedAt',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 160,
    },
  ],
} as const satisfies EntityCatalog;

export const submissionListItemSchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  formId: z.number().int(),
  formTitle: z.string(),
  applicant: z.string().nullable(),
  status: z.number().int(),
  protocolNumber: z.string().nullable(),
  assignedTo: z.number().int().nullable(),
  submittedAt: z.string(),
});
export type SubmissionListItem = z.infer<typeof submissionListItemSchema>;
