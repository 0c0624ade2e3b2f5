import { z } from 'zod';
import { customFieldValuesSchema } from './custom-fields.ts';
import { idSchema } from './db.ts';
import type { EntityCatalog, FieldDef } from './list.ts';
import { isIsoDate } from './time.ts';

/** Spec §3 status of a consumer: 0 pending, 1 active, 9 cancel. */
export const consumerStatuses = { pending: 0, active: 1, cancel: 9 } as const;
const statusIds = Object.values(consumerStatuses) as number[];

const dateField = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isIsoDate(value), 'validation.date');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));
const optionalId = idSchema.nullish().transform((value) => value ?? null);

/**
 * POST /api/protocol/consumers and PUT /api/protocol/consumers/{id}. `parts` are the encoding code's
 * level values as typed in the builder (one per level, the last the consumer's number); the server
 * cuts, pads and joins them into the code and checks each against its lookup.
 */
export const saveConsumerSchema = z
  .object({
    parts: z.array(z.string().max(40)).min(1).max(5),
    routePosition: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .nullish()
      .transform((v) => v ?? null),
    ownerId: idSchema,
    liableId: optionalId,
    receiverId: optionalId,
    supplyAddress: z.string().trim().min(1).max(300),
    supplyPostalCode: z
      .string()
      .trim()
      .nullish()
      .transform((value) => (value ? value : null))
      .refine((value) => value === null || /^\d{5}$/.test(value), 'validation.postal_code'),
    mailingAddress: optionalText(300),
    propertyUsageId: optionalId,
    connectionTypeId: optionalId,
    sewerageIndicatorId: optionalId,
    pipeDiameterId: optionalId,
    invoicePolicyId: optionalId,
    specialRegulationId: optionalId,
    specialFrom: dateField,
    specialTo: dateField,
    applicationDate: dateField,
    connectionDate: dateField,
    contractDate: dateField,
    disconnectionDate: dateField,
    status: z
      .number()
      .int()
      .refine((v) => statusIds.includes(v), 'validation.invalid'),
    notes: optionalText(4000),
    customFields: customFieldValuesSchema.default({}),
  })
  .superRefine((c, ctx) => {
    const order = (from: string | null, to: string | null, path: string) => {
      if (from && to && to < from)
        ctx.addIssue({ code: 'custom', path: [path], message: 'validation.dates_order' });
    };
    order(c.specialFrom, c.specialTo, 'specialTo');
    order(c.applicationDate, c.connectionDate, 'connectionDate');
    order(c.connectionDate, c.disconnectionDate, 'disconnectionDate');
    if (c.specialRegulationId === null && (c.specialFrom || c.specialTo))
      ctx.addIssue({ code: 'custom', path: ['specialRegulationId'], message: 'validation.required' });
  });
export type SaveConsumerRequest = z.input<typeof saveConsumerSchema>;
export type SaveConsumer = z.output<typeof saveConsumerSchema>;

const ref = z.object({ id: z.number().int(), code: z.string(), descr: z.string() }).nullable();
const traderRef = z
  .object({ id: z.number().int(), fullname: z.string().nullable(), vatnumber: z.string().nullable() })
  .nullable();

/** GET /api/protocol/consumers/{id}: the consumer with what its references read as. */
export const consumerSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  code: z.string(),
  parts: z.array(z.string()),
  sector: ref,
  route: ref,
  routePosition: z.number().int().nullable(),
  department: ref,
  area: ref,
  address: ref,
  building: ref,
  owner: traderRef,
  liable: traderRef,
  receiver: traderRef,
  supplyAddress: z.string(),
  supplyPostalCode: z.string().nullable(),
  mailingAddress: z.string().nullable(),
  propertyUsage: ref,
  connectionType: ref,
  sewerageIndicator: ref,
  pipeDiameter: ref,
  invoicePolicy: ref,
  specialRegulation: ref,
  specialFrom: z.string().nullable(),
  specialTo: z.string().nullable(),
  applicationDate: z.string().nullable(),
  connectionDate: z.string().nullable(),
  contractDate: z.string().nullable(),
  disconnectionDate: z.string().nullable(),
  status: z.number().int(),
  notes: z.string().nullable(),
  customFields: customFieldValuesSchema,
  createuser: z.string().nullable(),
  createdate: z.string().nullable(),
  updateuser: z.string().nullable(),
  updatedate: z.string().nullable(),
});
export type Consumer = z.infer<typeof consumerSchema>;

/** A row of GET /api/protocol/consumers/search. */
export const consumerListItemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  ownerName: z.string().nullable(),
  ownerVatnumber: z.string().nullable(),
  supplyAddress: z.string(),
  sectorCode: z.string().nullable(),
  routeCode: z.string().nullable(),
  routePosition: z.number().int().nullable(),
  usage: z.string().nullable(),
  status: z.number().int(),
  connectionDate: z.string().nullable(),
});
export type ConsumerListItem = z.infer<typeof consumerListItemSchema>;

const text = (id: string, width: number, extra: Partial<FieldDef> = {}): FieldDef => ({
  id,
  type: 'text',
  labelKey: `water.consumers.${id}`,
  sortable: true,
  filters: ['contains', 'eq'],
  exportable: true,
  width,
  ...extra,
});

export const consumersCatalog = {
  entity: 'consumers',
  titleKey: 'water.consumers.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    text('code', 150, { searchable: true, paddedCode: true }),
    text('ownerName', 260, { searchable: true }),
    text('ownerVatnumber', 120, { hiddenByDefault: true }),
    text('supplyAddress', 260, { searchable: true }),
    text('sectorCode', 120, { filters: ['eq'] }),
    text('routeCode', 130, { filters: ['eq'] }),
    {
      id: 'routePosition',
      type: 'number',
      labelKey: 'water.consumers.routePosition',
      sortable: true,
      filters: ['eq', 'gte', 'lte'],
      exportable: true,
      width: 160,
    },
    text('usage', 170),
    {
      id: 'status',
      type: 'enum',
      labelKey: 'water.consumers.status',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: statusIds.map((v) => ({ value: String(v), labelKey: `water.consumerStatus_${v}` })),
      width: 130,
    },
    {
      id: 'connectionDate',
      type: 'date',
      labelKey: 'water.consumers.connectionDate',
      sortable: true,
      filters: ['eq', 'gte', 'lte'],
      exportable: true,
      width: 130,
    },
  ],
} as const satisfies EntityCatalog;

/** GET /api/protocol/consumers/exist_code: truthy when the code exists (spec §7). */
export const existCodeSchema = z.boolean();
/** GET /api/protocol/consumers/generateEncodingCodeLastPart: the recommended last part (spec §7). */
export const lastPartSchema = z.object({ lastPart: z.string().nullable() });
