import { z } from 'zod';
import { idSchema } from './db.ts';
import { isoDaySchema } from './time.ts';
import { meterKinds } from './water-meters.ts';

/** Spec §3 transaction kinds of a consumer's lifecycle, and the extra charge (5) they may bring. */
export const lifecycleKinds = {
  stop: 11,
  reconnect: 12,
  pullOff: 13,
  replacement: 14,
  meterReplacement: 15,
  misc: 99,
} as const;
export const EXTRA_CHARGE_KIND = 5;
export const lifecycleKindIds = Object.values(lifecycleKinds) as number[];

/** Money as a decimal string, at most two decimals (never a binary float). */
export const AMOUNT_PATTERN = /^\d{1,9}(\.\d{1,2})?$/;
const reading = z.number().int().min(0).max(999_999_999);
const isoDay = isoDaySchema();
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

/** A meter as installed: serial number unique in the company, its type, kind, direction, digits. */
export const newMeterSchema = z.object({
  serialNumber: z.string().trim().min(1).max(40),
  meterTypeId: idSchema.nullish().transform((v) => v ?? null),
  kind: z
    .number()
    .int()
    .refine((v) => (Object.values(meterKinds) as number[]).includes(v), 'validation.invalid'),
  direction: z.union([z.literal(1), z.literal(-1)]),
  diameter: optionalText(30),
  digits: z.number().int().min(3).max(9),
  initialReading: reading,
});
export type NewMeter = z.infer<typeof newMeterSchema>;

/** POST /api/protocol/consumers/{id}/meters: the first meter of a consumer without one. */
export const installMeterSchema = z.object({ date: isoDay, meter: newMeterSchema });
export type InstallMeterRequest = z.input<typeof installMeterSchema>;

/**
 * POST /api/protocol/consumers/{id}/transactions: a lifecycle transaction. `reading` is the meter's
 * reading on the date (the old meter's final one for 13 and 15); a reading lower than the previous
 * one needs `comments` saying why. Kind 15 names the new meter and its initial reading.
 */
export const lifecycleTransactionSchema = z
  .object({
    kind: z
      .number()
      .int()
      .refine((v) => lifecycleKindIds.includes(v), 'validation.invalid'),
    date: isoDay,
    reading: reading.nullish().transform((v) => v ?? null),
    comments: optionalText(2000),
    newMeter: newMeterSchema.nullish().transform((v) => v ?? null),
    extraCharge: z
      .object({
        amount: z.string().trim().regex(AMOUNT_PATTERN, 'validation.amount'),
        description: z.string().trim().min(1).max(200),
      })
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((tx, ctx) => {
    const needsReading = tx.kind === lifecycleKinds.pullOff || tx.kind === lifecycleKinds.meterReplacement;
    if (needsReading && tx.reading === null)
      ctx.addIssue({ code: 'custom', path: ['reading'], message: 'validation.required' });
    if (tx.kind === lifecycleKinds.meterReplacement && tx.newMeter === null)
      ctx.addIssue({ code: 'custom', path: ['newMeter'], message: 'validation.required' });
    if (tx.kind !== lifecycleKinds.meterReplacement && tx.newMeter !== null)
      ctx.addIssue({ code: 'custom', path: ['newMeter'], message: 'validation.invalid' });
  });
export type LifecycleTransactionRequest = z.input<typeof lifecycleTransactionSchema>;

/** One meter's time on a consumer. */
export const meterInstallationSchema = z.object({
  id: z.number().int(),
  meterId: z.number().int(),
  serialNumber: z.string(),
  meterType: z.string().nullable(),
  kind: z.number().int(),
  direction: z.number().int(),
  diameter: z.string().nullable(),
  digits: z.number().int(),
  installedOn: z.string(),
  initialReading: z.number().int(),
  removedOn: z.string().nullable(),
  finalReading: z.number().int().nullable(),
  /** The latest reading known of it: the final one, else the last transaction's, else the initial one. */
  lastReading: z.number().int(),
});
export type MeterInstallation = z.infer<typeof meterInstallationSchema>;

/** A transaction on the consumer's timeline. */
export const consumerTransactionSchema = z.object({
  id: z.number().int(),
  kind: z.number().int(),
  date: z.string(),
  parentId: z.number().int().nullable(),
  reading: z.number().int().nullable(),
  serialNumber: z.string().nullable(),
  newSerialNumber: z.string().nullable(),
  newReading: z.number().int().nullable(),
  amount: z.string().nullable(),
  comments: z.string().nullable(),
  /** Kind 15: the consumption across the swap since the previous reading, when it can be told. */
  swapConsumption: z.number().int().nullable(),
  billedOn: z.string().nullable(),
  createuser: z.string().nullable(),
  createdate: z.string().nullable(),
});
export type ConsumerTransaction = z.infer<typeof consumerTransactionSchema>;
