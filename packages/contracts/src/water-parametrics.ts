import { z } from 'zod';
import { idSchema } from './db.ts';
import type { EntityCatalog } from './list.ts';
import { booleanField, numberField, requiredText, rowId, textField } from './settings-fields.ts';
import { isoDaySchema } from './time.ts';
import { meterKinds } from './water-meters.ts';

/**
 * The water service's parametric tables, edited as row tables at /parametrics/{code}:
 * most are a code and a description (sectors, areas, buildings, usages, …); routes belong to a
 * sector and have a reading order; meter types carry what a readout needs (digits for a rollover).
 */

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((value) => (value ? value : null));

/** A level value of the encoding code is a code: letters and digits, no separators or spaces. */
export const waterCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(12)
  .regex(/^[\p{L}\d]+$/u, 'validation.water_code');

export const waterCodedSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  active: z.boolean(),
});
export type WaterCoded = z.infer<typeof waterCodedSchema>;

export const waterCodedRowSchema = z.object({
  id: rowId,
  code: waterCodeSchema,
  description: requiredText(200),
  active: z.boolean(),
});
export type WaterCodedRow = z.infer<typeof waterCodedRowSchema>;

const codedFields = (prefix: string) => [
  textField('code', `${prefix}.code`, 120),
  textField('description', `${prefix}.description`, 300),
];

const codedCatalog = (entity: string) =>
  ({
    entity,
    titleKey: `water.${entity}.title`,
    defaultSort: { field: 'code', desc: false },
    fields: [...codedFields(`water.${entity}`), booleanField('active', `water.${entity}.active`)],
  }) satisfies EntityCatalog;

/** The plain code + description tables, by their route code (/parametrics/{code}). */
export const waterCodedTables = [
  'sectors',
  'areas',
  'buildings',
  'propertyUsages',
  'connectionTypes',
  'sewerageIndicators',
  'pipeDiameters',
] as const;
export type WaterCodedTable = (typeof waterCodedTables)[number];

export const waterCodedCatalogs = Object.fromEntries(
  waterCodedTables.map((code) => [code, codedCatalog(code)]),
) as unknown as Record<WaterCodedTable, EntityCatalog>;

// ----- Routes: a sector's reading route -----

export const waterRouteSchema = waterCodedSchema.extend({
  sectorId: z.number().int(),
  sectorCode: z.string(),
  readingOrder: z.number().int(),
});
export type WaterRoute = z.infer<typeof waterRouteSchema>;

export const waterRouteRowSchema = waterCodedRowSchema.extend({
  sectorId: idSchema,
  readingOrder: z.number().int().min(0).max(100_000),
});
export type WaterRouteRow = z.infer<typeof waterRouteRowSchema>;

export const waterRoutesCatalog = {
  entity: 'routes',
  titleKey: 'water.routes.title',
  defaultSort: { field: 'sectorCode', desc: false },
  fields: [
    textField('sectorCode', 'water.routes.sector', 120),
    ...codedFields('water.routes'),
    numberField('readingOrder', 'water.routes.readingOrder', 130),
    booleanField('active', 'water.routes.active'),
  ],
} as const satisfies EntityCatalog;

// ----- Water meter types -----

const meterKindIds = Object.values(meterKinds) as number[];

export const waterMeterTypeSchema = waterCodedSchema.extend({
  meterKind: z.number().int(),
  diameter: z.string().nullable(),
  digits: z.number().int(),
});
export type WaterMeterType = z.infer<typeof waterMeterTypeSchema>;

export const waterMeterTypeRowSchema = waterCodedRowSchema.extend({
  meterKind: z
    .number()
    .int()
    .refine((v) => meterKindIds.includes(v), 'validation.invalid'),
  diameter: optionalText(30),
  digits: z.number().int().min(3).max(9),
});
export type WaterMeterTypeRow = z.infer<typeof waterMeterTypeRowSchema>;

export const waterMeterTypesCatalog = {
  entity: 'meterTypes',
  titleKey: 'water.meterTypes.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    ...codedFields('water.meterTypes'),
    {
      id: 'meterKind',
      type: 'enum',
      labelKey: 'water.meterTypes.meterKind',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: meterKindIds.map((v) => ({ value: String(v), labelKey: `water.meterKind_${v}` })),
      width: 150,
    },
    textField('diameter', 'water.meterTypes.diameter', 110),
    numberField('digits', 'water.meterTypes.digits', 110),
    booleanField('active', 'water.meterTypes.active'),
  ],
} as const satisfies EntityCatalog;

// ----- Special regulations: the social and special tariff categories -----

export const waterSpecialRegulationSchema = waterCodedSchema.extend({
  requiredDocuments: z.string().nullable(),
});
export type WaterSpecialRegulation = z.infer<typeof waterSpecialRegulationSchema>;

export const waterSpecialRegulationRowSchema = waterCodedRowSchema.extend({
  requiredDocuments: optionalText(1000),
});
export type WaterSpecialRegulationRow = z.infer<typeof waterSpecialRegulationRowSchema>;

export const waterSpecialRegulationsCatalog = {
  entity: 'specialRegulations',
  titleKey: 'water.specialRegulations.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    ...codedFields('water.specialRegulations'),
    textField('requiredDocuments', 'water.specialRegulations.requiredDocuments', 360),
    booleanField('active', 'water.specialRegulations.active'),
  ],
} as const satisfies EntityCatalog;

// ----- Invoice policies (spec §3 'Invoice policy') -----

/** A tax per cubic metre, in euros, up to 4 decimals (envtax, resourcetax). */
export const RATE_PATTERN = /^\d{1,6}(\.\d{1,4})?$/;
// Days as YYYY-MM-DD; the screens type them DD/MM/YYYY, hence the message's format.
const isoDate = isoDaySchema('validation.day');

export const invoicePolicySchema = z.object({
  id: z.number().int(),
  description: z.string(),
  fromdate: z.string(),
  todate: z.string().nullable(),
  bonusdays: z.number().int(),
  expiredays: z.number().int(),
  minConsumption: z.number().int(),
  envtax: z.string(),
  resourcetax: z.string(),
  periodicityId: z.number().int(),
  active: z.boolean(),
});
export type InvoicePolicy = z.infer<typeof invoicePolicySchema>;

export const invoicePolicyRowSchema = z
  .object({
    id: rowId,
    description: requiredText(200),
    fromdate: isoDate,
    todate: isoDate.nullable(),
    bonusdays: z.number().int().min(0).max(365),
    expiredays: z.number().int().min(0).max(365),
    minConsumption: z.number().int().min(0).max(1_000_000),
    envtax: z.string().trim().regex(RATE_PATTERN, 'validation.rate'),
    resourcetax: z.string().trim().regex(RATE_PATTERN, 'validation.rate'),
    periodicityId: idSchema,
    active: z.boolean(),
  })
  .superRefine((row, ctx) => {
    if (row.todate !== null && row.todate < row.fromdate)
      ctx.addIssue({ code: 'custom', path: ['todate'], message: 'validation.dates_order' });
  });
export type InvoicePolicyRow = z.infer<typeof invoicePolicyRowSchema>;

export const invoicePoliciesCatalog = {
  entity: 'invoicePolicies',
  titleKey: 'water.invoicePolicies.title',
  defaultSort: { field: 'fromdate', desc: true },
  fields: [
    textField('description', 'water.invoicePolicies.description', 260),
    {
      ...textField('fromdate', 'water.invoicePolicies.fromdate', 130),
      type: 'date',
      filters: ['eq', 'gte', 'lte'],
      searchable: false,
    },
    {
      ...textField('todate', 'water.invoicePolicies.todate', 130),
      type: 'date',
      filters: ['eq', 'gte', 'lte'],
      searchable: false,
    },
    numberField('bonusdays', 'water.invoicePolicies.bonusdays', 120),
    numberField('expiredays', 'water.invoicePolicies.expiredays', 120),
    numberField('minConsumption', 'water.invoicePolicies.minConsumption', 140),
    numberField('envtax', 'water.invoicePolicies.envtax', 120, { type: 'money', amount: 'price' }),
    numberField('resourcetax', 'water.invoicePolicies.resourcetax', 120, { type: 'money', amount: 'price' }),
    booleanField('active', 'water.invoicePolicies.active'),
  ],
} as const satisfies EntityCatalog;

// ----- Lookups per level type (spec §7 GET /api/protocol/parametrics/{sectors,…}) -----

/** One value a level of the encoding code may take: its code is the part of the code. */
export const levelLookupItemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  descr: z.string(),
  /** For a route: its sector. */
  sectorId: z.number().int().nullable(),
});
export type LevelLookupItem = z.infer<typeof levelLookupItemSchema>;

export const levelLookups = ['sectors', 'routes', 'departments', 'areas', 'addresses', 'buildings'] as const;
export type LevelLookup = (typeof levelLookups)[number];
