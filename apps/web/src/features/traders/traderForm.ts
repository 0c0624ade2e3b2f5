import {
  type CustomFieldDefinition,
  type FieldError,
  isIsoDate,
  saveTraderSchema,
} from '@protocol/contracts';
import {
  type CustomFieldFormValues,
  checkCustomFieldForm,
  customFieldsToBody,
  customFieldsToForm,
} from '../../components/CustomFields/index.ts';
import { wireDate } from '../../components/form/dates.ts';
import type { FormContract } from '../../components/form/resolver.ts';
import { formatDate } from '../../lib/dates.ts';
import { normalizeIban, type SaveTraderRequest, type Trader, type TraderStatus } from './model.ts';

export const TEXT_FIELDS = [
  'tradercode',
  'vatnumber',
  'fullname',
  'title',
  'firstname',
  'lastname',
  'fathername',
  'mothername',
  'job',
  'phones',
  'mobile',
  'email',
  'address',
  'city',
  'area',
  'zipcode',
  'doy',
  'country',
  'idnumber',
  'birthday',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export interface BankRowValues {
  id: number | null;
  iban: string;
  bic: string;
  bankId: string;
}

export type TraderFormValues = Record<TextField, string> & {
  vat_category: string;
  vat_status: string;
  kepyo: boolean;
  individual: boolean;
  active: boolean;
  status: `${TraderStatus}`;
  traderbanks: BankRowValues[];
  customFields: CustomFieldFormValues;
};

const EMPTY_TRADER: TraderFormValues = {
  ...(Object.fromEntries(TEXT_FIELDS.map((field) => [field, ''])) as Record<TextField, string>),
  country: 'GR',
  vat_category: '',
  vat_status: '',
  kepyo: false,
  individual: false,
  active: true,
  status: '1',
  traderbanks: [],
  customFields: {},
};

/** A new trader: a legal entity in Greece, active. */
export const emptyTrader = (fields: CustomFieldDefinition[]): TraderFormValues => ({
  ...EMPTY_TRADER,
  customFields: customFieldsToForm(fields, undefined),
});

export function toForm(trader: Trader, fields: CustomFieldDefinition[]): TraderFormValues {
  const values = { ...EMPTY_TRADER };
  for (const field of TEXT_FIELDS) {
    const value = (trader as unknown as Record<string, unknown>)[field];
    values[field] = value === null || value === undefined ? '' : String(value);
  }
  values.birthday = trader.birthday && isIsoDate(trader.birthday) ? formatDate(trader.birthday) : '';
  values.vat_category = trader.vat_category === null ? '' : String(trader.vat_category);
  values.vat_status = trader.vat_status === null ? '' : String(trader.vat_status);
  values.kepyo = Boolean(trader.kepyo);
  values.individual = trader.individual;
  values.active = trader.active;
  values.status = String(trader.status) as TraderFormValues['status'];
  values.traderbanks = (trader.traderbanks ?? []).map((bank) => ({
    id: bank.id,
    iban: bank.iban,
    bic: bank.bic ?? '',
    bankId: bank.bankId === null ? '' : String(bank.bankId),
  }));
  values.customFields = customFieldsToForm(fields, trader.customFields);
  return values;
}

const blank = (value: string) => value.trim() || null;
const idOrNull = (value: string) => (value ? Number(value) : null);

export function toBody(values: TraderFormValues, fields: CustomFieldDefinition[]): SaveTraderRequest {
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, blank(values[field])])) as Record<
    TextField,
    string | null
  >;
  // individuals: the server derives 'lastname firstname' (traderFullname)
  const fullname = values.individual ? null : text.fullname;
  return {
    ...text,
    vatnumber: text.vatnumber,
    fullname,
    title: values.individual ? null : text.title,
    firstname: values.individual ? text.firstname : null,
    lastname: values.individual ? text.lastname : null,
    fathername: values.individual ? text.fathername : null,
    mothername: values.individual ? text.mothername : null,
    birthday: wireDate(values.birthday),
    vat_category: idOrNull(values.vat_category),
    vat_status: idOrNull(values.vat_status),
    kepyo: values.kepyo,
    individual: values.individual,
    active: values.active,
    status: Number(values.status) as TraderStatus,
    traderbanks: values.traderbanks.map((bank) => ({
      id: bank.id,
      iban: normalizeIban(bank.iban),
      bic: blank(bank.bic)?.toUpperCase() ?? null,
      bankId: idOrNull(bank.bankId),
    })),
    customFields: customFieldsToBody(fields, values.customFields),
  };
}

/** The company's custom fields are settings, not contract: their required and typed values are checked here. */
function customFieldErrors(fields: CustomFieldDefinition[], values: TraderFormValues): FieldError[] {
  const errors: FieldError[] = [];
  checkCustomFieldForm(fields, values.customFields, (key, message) =>
    errors.push({ field: `customFields.${key}`, key: message, params: {} }),
  );
  return errors;
}

/** The trader form is checked with the server's own rules (saveTraderSchema) on the body it sends. */
export function traderContract(
  fields: CustomFieldDefinition[],
): FormContract<TraderFormValues, SaveTraderRequest> {
  return {
    schema: saveTraderSchema,
    toBody: (values) => toBody(values, fields),
    check: (values) => customFieldErrors(fields, values),
  };
}
