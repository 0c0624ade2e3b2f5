import { type CustomFieldDefinition, isIsoDate } from '@protocol/contracts';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  type CustomFieldFormValues,
  checkCustomFieldForm,
  customFieldsToBody,
  customFieldsToForm,
} from '../../components/CustomFields/index.ts';
import { contractResolver } from '../../lib/contractResolver.ts';
import { formatDate } from '../../lib/dates.ts';
import {
  BIC_REGEX,
  isValidIban,
  isValidVatNumber,
  normalizeIban,
  type SaveTraderRequest,
  type Trader,
  type TraderStatus,
} from './model.ts';

dayjs.extend(customParseFormat);

/** Spec §5: dates shown DD/MM/YYYY, sent YYYY-MM-DD. */
export const SHOWN_DATE = 'DD/MM/YYYY';

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

export const EMPTY_TRADER: TraderFormValues = {
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

/** Every form field that the server may name in a field error. */
export const FORM_FIELDS: readonly string[] = [
  ...TEXT_FIELDS,
  'vat_category',
  'vat_status',
  'kepyo',
  'individual',
  'active',
  'status',
];

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
const wireDate = (value: string) =>
  value.trim() ? dayjs(value.trim(), SHOWN_DATE, true).format('YYYY-MM-DD') : null;

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

const isDate = (value: string) => dayjs(value.trim(), SHOWN_DATE, true).isValid();

/** The form's rules (the server checks the same): messages are catalog keys. */
export function traderSchema(fields: CustomFieldDefinition[]) {
  return z
    .object({
      vatnumber: z.string(),
      email: z.string(),
      birthday: z.string(),
      zipcode: z.string(),
      fullname: z.string().max(200),
      firstname: z.string().max(100),
      lastname: z.string().max(100),
      individual: z.boolean(),
      traderbanks: z.array(
        z.object({
          iban: z.string(),
          bic: z.string(),
          bankId: z.string(),
        }),
      ),
      // Checked field by field below: an untouched custom field is undefined, and a failure here
      // would skip every other check of the form.
      customFields: z.record(z.string(), z.unknown()),
    })
    .loose()
    .superRefine((values, ctx) => {
      const issue = (path: (string | number)[], message: string) =>
        ctx.addIssue({ code: 'custom', path, message });
      if (values.vatnumber.trim() && !isValidVatNumber(values.vatnumber.trim())) {
        issue(['vatnumber'], 'validation.vatnumber');
      }
      if (values.email.trim() && !z.email().safeParse(values.email.trim()).success) {
        issue(['email'], 'validation.email');
      }
      if (values.birthday.trim() && !isDate(values.birthday)) issue(['birthday'], 'validation.date_shown');
      if (values.zipcode.trim() && !/^\d{5}$/.test(values.zipcode.trim())) {
        issue(['zipcode'], 'validation.postal_code');
      }
      if (values.individual) {
        if (!values.lastname.trim()) issue(['lastname'], 'validation.required');
        if (!values.firstname.trim()) issue(['firstname'], 'validation.required');
      } else if (!values.fullname.trim()) issue(['fullname'], 'validation.required');
      values.traderbanks.forEach((bank, index) => {
        if (!bank.iban.trim()) issue(['traderbanks', index, 'iban'], 'validation.required');
        else if (!isValidIban(bank.iban)) issue(['traderbanks', index, 'iban'], 'validation.iban');
        if (bank.bic.trim() && !BIC_REGEX.test(bank.bic.trim().toUpperCase())) {
          issue(['traderbanks', index, 'bic'], 'validation.bic');
        }
      });
      checkCustomFieldForm(fields, values.customFields, (key, message) =>
        issue(['customFields', key], message),
      );
    });
}

/** Field errors nested by path ('traderbanks.0.iban'), the shape react-hook-form reads. */
function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, error] of Object.entries(flat)) {
    const parts = path.split('.');
    let node = out;
    parts.slice(0, -1).forEach((part) => {
      node[part] = (node[part] as Record<string, unknown> | undefined) ?? {};
      node = node[part] as Record<string, unknown>;
    });
    node[parts[parts.length - 1] as string] = error;
  }
  return out;
}

export function traderResolver(fields: CustomFieldDefinition[]): Resolver<TraderFormValues> {
  const resolve = contractResolver(traderSchema(fields)) as unknown as Resolver<TraderFormValues>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    const errors = result.errors as Record<string, unknown>;
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    return { values: {}, errors: nest(errors) as typeof result.errors };
  };
}
