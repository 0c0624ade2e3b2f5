import { describe, expect, it } from 'vitest';
import {
  type CustomFieldDefinition,
  fieldLabel,
  namedValueLabel,
  optionLabel,
  withCustomFields,
} from './custom-fields.ts';
import { jobsCatalog } from './jobs.ts';
import { tradersCatalog } from './traders.ts';

const definition = (
  key: string,
  type: CustomFieldDefinition['type'],
  extra: Partial<CustomFieldDefinition> = {},
) => ({
  key,
  labelEl: `Πεδίο ${key}`,
  labelEn: '',
  type,
  required: false,
  choices: [],
  ...extra,
});

describe('custom fields as list columns', () => {
  it('appends one hidden column custom.<key> per field, with filters by type', () => {
    const catalog = withCustomFields(tradersCatalog, [
      definition('note', 'text'),
      definition('members', 'number'),
      definition('since', 'date'),
      definition('owner', 'boolean'),
      definition('zone', 'select', { choices: [{ id: 7, description: 'Βόρεια' }] }),
    ]);
    const custom = catalog.fields.slice(tradersCatalog.fields.length);
    expect(custom.map((f) => [f.id, f.type, f.filters, f.hiddenByDefault])).toEqual([
      ['custom.note', 'text', ['contains', 'eq'], true],
      ['custom.members', 'number', ['eq', 'gt', 'gte', 'lt', 'lte'], true],
      ['custom.since', 'date', ['eq', 'gt', 'gte', 'lt', 'lte'], true],
      ['custom.owner', 'boolean', ['eq'], true],
      ['custom.zone', 'enum', ['eq'], true],
    ]);
    expect(custom.at(-1)?.options).toEqual([{ value: '7', labelKey: 'list.customField', label: 'Βόρεια' }]);
    expect(withCustomFields(tradersCatalog, [])).toBe(tradersCatalog);
  });

  it('labels: the field’s own, the Greek one when the English is empty; catalog keys otherwise', () => {
    const [column] = withCustomFields({ ...tradersCatalog, fields: [] }, [definition('note', 'text')]).fields;
    const translate = (key: string) => `«${key}»`;
    expect(column && fieldLabel(column, 'en', translate)).toBe('Πεδίο note');
    expect(fieldLabel(tradersCatalog.fields[1], 'el', translate)).toBe('«traders.field.tradercode»');
    expect(optionLabel({ value: '1', labelKey: 'x', label: 'Βόρεια' }, translate)).toBe('Βόρεια');
    expect(optionLabel({ value: '1', labelKey: 'x' }, translate)).toBe('«x»');
  });
});

describe('values named under a label prefix', () => {
  const kind = jobsCatalog.fields.find((field) => field.id === 'kind');
  const labels: Record<string, string> = { 'jobs.kind.search.reindex': 'Αναδημιουργία ευρετηρίου' };
  const translate = (key: string) => labels[key] ?? key;

  it("shows a job's kind by its label, and an unknown kind as itself", () => {
    if (!kind) throw new Error('the jobs catalog has no kind');
    expect(namedValueLabel(kind, 'search.reindex', translate)).toBe('Αναδημιουργία ευρετηρίου');
    expect(namedValueLabel(kind, 'water.import', translate)).toBe('water.import');
  });

  it('leaves the values of other fields alone', () => {
    const state = jobsCatalog.fields.find((field) => field.id === 'createdAt');
    if (!state) throw new Error('the jobs catalog has no createdAt');
    expect(namedValueLabel(state, 'search.reindex', translate)).toBe('search.reindex');
  });
});
