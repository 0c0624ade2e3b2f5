import { describe, expect, it } from 'vitest';
import {
  canMoveSubmission,
  compareDecimal,
  type FormStructure,
  parseRules,
  parseStructure,
  RuleStringError,
  serializeRules,
  submissionTransitions,
  validateSubmission,
  visibleFields,
} from './forms.ts';
import { checkValue } from './forms-rules.ts';
import { isValidRf, rfCode } from './rf.ts';

const input = (type: string, field: string, validation = '', extra: Record<string, unknown> = {}) => ({
  type,
  options: { field, label: field },
  items: [],
  validation,
  conditionals: [],
  ...extra,
});

describe('the rule string', () => {
  it('round-trips every rule, in a fixed order', () => {
    for (const rule of [
      '',
      'required',
      'required|email',
      'decimal|min:0|max:1000.50',
      'required|callback:greekMobile',
      'length:9|pattern:[0-9]+',
      'pattern:a\\|b',
      'required|number|callback:postalCode|min:1|max:99|length:2|pattern:\\d+',
    ]) {
      expect(serializeRules(parseRules(rule)), rule).toBe(rule);
    }
    expect(serializeRules(parseRules('max:5 | required'))).toBe('required|max:5');
    expect(parseRules('pattern:a\\|b').pattern).toBe('a|b');
  });

  it('refuses unknown rules, two types, bad values and bad patterns', () => {
    for (const rule of [
      'requird',
      'email|number',
      'min:abc',
      'length:0',
      'pattern:(',
      'callback:nope',
      'required:1',
    ]) {
      expect(() => parseRules(rule), rule).toThrow(RuleStringError);
    }
  });
});

describe('each rule', () => {
  const check = (rule: string, value: unknown) => checkValue(parseRules(rule), value)?.key ?? null;

  it('required: empty text, unticked box and empty list are missing; optional empty passes', () => {
    expect(check('required', '  ')).toBe('validation.required');
    expect(check('required', false)).toBe('validation.required');
    expect(check('required', [])).toBe('validation.required');
    expect(check('required', 'x')).toBeNull();
    expect(check('email|min:5', '')).toBeNull();
  });

  it('types', () => {
    expect(check('email', 'a@b')).toBe('validation.email');
    expect(check('email', 'maria@example.gr')).toBeNull();
    expect(check('number', '12.5')).toBe('validation.integer');
    expect(check('number', '-12')).toBeNull();
    expect(check('decimal', '12,5')).toBe('validation.number');
    expect(check('decimal', '12.50')).toBeNull();
    expect(check('phone', 'abc')).toBe('validation.phone');
    expect(check('phone', '+30 2310 123456')).toBeNull();
    expect(check('date', '2026-02-30')).toBe('validation.date');
    expect(check('date', '2026-02-28')).toBeNull();
    expect(check('afm', '123456789')).toBe('validation.vatnumber');
    expect(check('afm', '094014201')).toBeNull();
    expect(check('iban', 'GR1601101250000000012300695')).toBeNull();
    expect(check('iban', 'GR1601101250000000012300697')).toBe('validation.iban');
    expect(check('rf', 'RF18539007547034')).toBeNull();
    expect(check('rf', 'RF19539007547034')).toBe('validation.rf');
    expect(check('url', 'ftp://x')).toBe('validation.url');
  });

  it('callbacks', () => {
    expect(check('callback:greekMobile', '6912345678')).toBeNull();
    expect(check('callback:greekMobile', '+30 691 234 5678')).toBeNull();
    expect(check('callback:greekMobile', '2310123456')).toBe('validation.greek_mobile');
    expect(check('callback:postalCode', '546 21')).toBeNull();
    expect(check('callback:postalCode', '5462')).toBe('validation.postal_code');
    expect(check('callback:afm', '094014200')).toBe('validation.vatnumber');
  });

  it('min and max bound the value of numbers exactly and the length of text', () => {
    expect(check('decimal|min:0.10', '0.09')).toBe('validation.min_value');
    expect(check('decimal|min:0.10', '0.1')).toBeNull();
    expect(check('decimal|max:1000.50', '1000.51')).toBe('validation.max_value');
    expect(check('decimal|max:1000.50', '1000.5')).toBeNull();
    expect(check('number|min:-5', '-6')).toBe('validation.min_value');
    expect(check('min:3', 'αβ')).toBe('validation.min_length');
    expect(check('max:3', 'αβγδ')).toBe('validation.max_length');
    expect(check('max:3', 'αβγ')).toBeNull();
    expect(check('min:2', ['a'])).toBe('validation.min_items');
  });

  it('length and pattern (anchored)', () => {
    expect(check('length:5', '1234')).toBe('validation.exact_length');
    expect(check('length:5', '12345')).toBeNull();
    expect(check('pattern:[0-9]+', '12a')).toBe('validation.pattern');
    expect(check('pattern:[0-9]+', 'a12')).toBe('validation.pattern');
    expect(check('pattern:[0-9]+', '12')).toBeNull();
  });

  it('compares decimals without floats', () => {
    expect(compareDecimal('0.1', '0.10')).toBe(0);
    expect(compareDecimal('-0', '0')).toBe(0);
    expect(compareDecimal('-1', '0.5')).toBe(-1);
    expect(compareDecimal('-1.5', '-1.25')).toBe(-1);
    expect(compareDecimal('100', '99.999')).toBe(1);
    expect(compareDecimal('12345678901234567890.01', '12345678901234567890.001')).toBe(1);
  });
});

describe('RF creditor reference (ISO 11649)', () => {
  it('computes the check digits of the standard example and validates them', () => {
    expect(rfCode('539007547034')).toBe('RF18539007547034');
    expect(isValidRf('RF18 5390 0754 7034')).toBe(true);
    expect(isValidRf('RF18539007547035')).toBe(false);
    expect(isValidRf('RF18')).toBe(false);
    for (const ref of ['1', 'ABC123', '2026000000000000000001']) {
      if (ref.length <= 21) expect(isValidRf(rfCode(ref)), ref).toBe(true);
    }
    expect(() => rfCode('2026000000000000000001')).toThrow(RangeError);
    expect(rfCode('1').length).toBe(5);
  });
});

const connectionForm: FormStructure = [
  {
    type: 'inputLayout',
    name: 'Στοιχεία',
    showTitle: true,
    theme: 'Plain',
    grid: 2,
    conditionals: [],
    elements1: [input('text', 'fullname', 'required|max:100'), input('email', 'email', 'required')],
    elements2: [
      input('checkbox', 'isCompany'),
      input('afm', 'vatnumber', 'required', {
        conditionals: [{ field: 'isCompany', operator: 'equals', value: 'true' }],
      }),
    ],
  },
  {
    type: 'inputLayout',
    name: 'Ακίνητο',
    showTitle: true,
    theme: 'Plain',
    grid: 1,
    conditionals: [{ field: 'fullname', operator: 'notEquals', value: '' }],
    elements1: [
      input('decimal', 'area', 'required|min:1'),
      input('text', 'poolVolume', 'required', {
        conditionals: [{ field: 'area', operator: 'gt', value: '200' }],
      }),
      input('select', 'use', 'required', {
        items: [
          { value: 'home', label: 'Οικιακή' },
          { value: 'shop', label: 'Επαγγελματική' },
        ],
      }),
    ],
  },
] as FormStructure;

describe('conditionals', () => {
  it('show a field when a checkbox is ticked, and compare numbers', () => {
    expect(visibleFields(connectionForm, { fullname: 'Μαρία', isCompany: false })).not.toContain('vatnumber');
    expect(visibleFields(connectionForm, { fullname: 'Μαρία', isCompany: true })).toContain('vatnumber');
    expect(visibleFields(connectionForm, { fullname: 'Μ', area: '200' })).not.toContain('poolVolume');
    expect(visibleFields(connectionForm, { fullname: 'Μ', area: '200.01' })).toContain('poolVolume');
  });

  it('a hidden row hides its fields, and a field that depends on a hidden field is hidden too', () => {
    const visible = visibleFields(connectionForm, { fullname: '', area: '500' });
    expect(visible).not.toContain('area');
    expect(visible).not.toContain('poolVolume');
  });

  it('hidden fields are neither validated nor stored', () => {
    const { errors, values } = validateSubmission(connectionForm, {
      fullname: 'Μαρία Π.',
      email: 'maria@example.gr',
      isCompany: false,
      vatnumber: 'not a vat number',
      area: '80',
      poolVolume: '',
      use: 'home',
      injected: 'ignored',
    });
    expect(errors).toEqual([]);
    expect(values).toEqual({ fullname: 'Μαρία Π.', email: 'maria@example.gr', area: '80', use: 'home' });
  });

  it('shown fields are validated with the rules their type implies', () => {
    const { errors } = validateSubmission(connectionForm, {
      fullname: 'Μαρία',
      email: 'maria@',
      isCompany: true,
      vatnumber: '123456789',
      area: '0.5',
      use: 'factory',
    });
    expect(errors.map((e) => [e.field, e.key])).toEqual([
      ['email', 'validation.email'],
      ['vatnumber', 'validation.vatnumber'],
      ['area', 'validation.min_value'],
      ['use', 'validation.choice'],
    ]);
  });

  it('contains, and a cycle of conditionals hides both fields', () => {
    const form = [
      {
        type: 'inputLayout',
        name: '',
        showTitle: false,
        theme: 'Plain',
        grid: 1,
        conditionals: [],
        elements1: [
          input('text', 'a', '', { conditionals: [{ field: 'b', operator: 'equals', value: 'x' }] }),
          input('text', 'b', '', { conditionals: [{ field: 'a', operator: 'equals', value: 'x' }] }),
          input('text', 'c', '', { conditionals: [{ field: 'd', operator: 'contains', value: 'ΔΙΑΡΡΟΉ' }] }),
          input('text', 'd'),
        ],
      },
    ] as FormStructure;
    const visible = visibleFields(form, { a: 'x', b: 'x', d: 'μεγάλη διαρροή στον δρόμο' });
    expect([...visible].sort()).toEqual(['c', 'd']);
  });
});

describe('the stored structure', () => {
  it('parses the api text and refuses a field name used twice (dynamicForms.item_already_exists)', () => {
    expect(parseStructure(JSON.stringify(connectionForm)).ok).toBe(true);
    const twice = structuredClone(connectionForm);
    (twice[1] as FormStructure[number]).elements1 = [
      input('text', 'email'),
    ] as FormStructure[number]['elements1'];
    const result = parseStructure(JSON.stringify(twice));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toEqual([
        {
          field: 'rows.0.elements1.1.options.field',
          key: 'dynamicForms.item_already_exists',
          params: { name: 'email' },
        },
        {
          field: 'rows.1.elements1.0.options.field',
          key: 'dynamicForms.item_already_exists',
          params: { name: 'email' },
        },
      ]);
    }
  });

  it('refuses bad JSON, a column beyond the grid, a bad rule string and an input without a name', () => {
    const errorsOf = (api: string) => {
      const r = parseStructure(api);
      return r.ok ? [] : r.errors.map((e) => e.key);
    };
    expect(errorsOf('{')).toEqual(['dynamicForms.bad_json']);
    expect(errorsOf(JSON.stringify([{ type: 'inputLayout', grid: 1, elements2: [] }]))).toEqual([
      'dynamicForms.bad_column',
    ]);
    expect(errorsOf(JSON.stringify([{ type: 'inputLayout', grid: 5 }]))).toEqual(['validation.invalid']);
    expect(
      errorsOf(
        JSON.stringify([{ type: 'inputLayout', grid: 1, elements1: [input('text', 'a', 'requird')] }]),
      ),
    ).toEqual(['dynamicForms.bad_rule']);
    expect(
      errorsOf(
        JSON.stringify([{ type: 'inputLayout', grid: 1, elements1: [{ type: 'text', options: {} }] }]),
      ),
    ).toEqual(['dynamicForms.field_required']);
    expect(
      errorsOf(
        JSON.stringify([
          {
            type: 'inputLayout',
            grid: 1,
            elements1: [
              input('text', 'a', '', { conditionals: [{ field: 'zz', operator: 'eq', value: '1' }] }),
            ],
          },
        ]),
      ),
    ).toEqual(['dynamicForms.unknown_field']);
  });
});

describe('submission statuses', () => {
  it('allows the review desk transitions and refuses the rest', () => {
    expect(canMoveSubmission(0, 2)).toBe(true);
    expect(canMoveSubmission(2, 3)).toBe(true);
    expect(canMoveSubmission(3, 5)).toBe(true);
    expect(canMoveSubmission(4, 2)).toBe(false);
    expect(canMoveSubmission(0, 0)).toBe(false);
    expect(canMoveSubmission(0, 3)).toBe(false);
    expect(canMoveSubmission(9, 1)).toBe(false);
    for (const [from, tos] of Object.entries(submissionTransitions)) {
      expect(tos, from).not.toContain(Number(from));
    }
  });
});
