import { z } from 'zod';
import type { FieldError } from './errors.ts';
import { isValidRuleString, parseRules, type Rules } from './forms-rules.ts';

/**
 * Online forms: the stored structure the builder writes (`api`, JSON text of layout rows) and its checks.
 */

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
  /** The label in English, shown on the public form under /en (the label above without it). */
  labelEn: z.string().max(500).optional(),
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
