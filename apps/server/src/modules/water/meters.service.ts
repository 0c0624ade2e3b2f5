import {
  type ConsumerTransaction,
  EXTRA_CHARGE_KIND,
  type InstallMeterRequest,
  type LifecycleTransactionRequest,
  lifecycleKinds,
  type MeterInstallation,
  meterConsumption,
  type NewMeter,
  swapConsumption,
} from '@protocol/contracts';
import { and, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { waterConsumers } from './consumers.schema.ts';
import { waterConsumerTransactions, waterMeterInstallations, waterMeters } from './meters.schema.ts';
import { waterMeterTypes } from './parametrics.schema.ts';

type Installation = typeof waterMeterInstallations.$inferSelect;

/** The consumer, locked for the change: one lifecycle change of a consumer at a time. */
async function lockConsumer(tx: Tx, companyId: number, id: number) {
  const [row] = await tx
    .select()
    .from(waterConsumers)
    .where(and(eq(waterConsumers.id, id), eq(waterConsumers.companyId, companyId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

async function activeInstallation(tx: Db | Tx, consumerId: number): Promise<Installation | null> {
  const [row] = await tx
    .select()
    .from(waterMeterInstallations)
    .where(
      and(eq(waterMeterInstallations.consumerId, consumerId), isNull(waterMeterInstallations.removedOn)),
    );
  return row ?? null;
}

/** The latest reading of a meter on a consumer: its last transaction's reading, else its initial one. */
async function lastReading(tx: Db | Tx, installation: Installation): Promise<number> {
  if (installation.finalReading !== null) return installation.finalReading;
  const [row] = await tx
    .select({ reading: waterConsumerTransactions.reading })
    .from(waterConsumerTransactions)
    .where(
      and(
        eq(waterConsumerTransactions.consumerId, installation.consumerId),
        eq(waterConsumerTransactions.meterId, installation.meterId),
        isNotNull(waterConsumerTransactions.reading),
      ),
    )
    .orderBy(desc(waterConsumerTransactions.date), desc(waterConsumerTransactions.id))
    .limit(1);
  return row?.reading ?? installation.initialReading;
}

/** A new meter of the company; a serial number used elsewhere is refused naming `field`. */
async function createMeter(tx: Tx, principal: Principal, companyId: number, meter: NewMeter, field: string) {
  const [used] = await tx
    .select({ id: waterMeters.id })
    .from(waterMeters)
    .where(and(eq(waterMeters.companyId, companyId), eq(waterMeters.serialNumber, meter.serialNumber)));
  if (used) throw badRequest([{ field, key: 'validation.meter_serial_taken', params: {} }]);
  if (meter.meterTypeId !== null) {
    const [type] = await tx
      .select({ id: waterMeterTypes.id })
      .from(waterMeterTypes)
      .where(and(eq(waterMeterTypes.id, meter.meterTypeId), eq(waterMeterTypes.companyId, companyId)));
    if (!type)
      throw badRequest([
        {
          field: field.replace(/serialNumber$/, 'meterTypeId'),
          key: 'validation.not_of_company',
          params: {},
        },
      ]);
  }
  const { initialReading: _initial, ...values } = meter;
  const [row] = await tx
    .insert(waterMeters)
    .values({ companyId, ...values, createuser: principal.username })
    .returning({ id: waterMeters.id });
  return row?.id ?? 0;
}

/** Two saves of one serial number at once: the second is the same refusal as a serial in use. */
function serialConflict(error: unknown, field: string): never {
  const failure = pgError(error);
  if (failure?.code === UNIQUE_VIOLATION && failure.constraint === 'water_meters_serial_unique')
    throw badRequest([{ field, key: 'validation.meter_serial_taken', params: {} }]);
  if (failure?.code === UNIQUE_VIOLATION) throw new AppError(409, 'error.meter_already_installed');
  throw error;
}

/** The first meter of a consumer that has none on. */
export async function installMeter(
  db: Db,
  principal: Principal,
  companyId: number,
  consumerId: number,
  input: InstallMeterRequest & { meter: NewMeter },
  requestId: string,
): Promise<MeterInstallation[]> {
  try {
    await db.transaction(async (tx) => {
      await lockConsumer(tx, companyId, consumerId);
      if (await activeInstallation(tx, consumerId)) throw new AppError(409, 'error.meter_already_installed');
      const meterId = await createMeter(tx, principal, companyId, input.meter, 'meter.serialNumber');
      await tx.insert(waterMeterInstallations).values({
        companyId,
        consumerId,
        meterId,
        installedOn: input.date,
        initialReading: input.meter.initialReading,
        createuser: principal.username,
      });
      await recordAudit(tx, {
        entity: 'consumer',
        entityId: consumerId,
        action: 'meter_install',
        companyId,
        user: principal,
        requestId,
        changes: { meter: { before: null, after: input.meter.serialNumber } },
      });
    });
  } catch (error) {
    serialConflict(error, 'meter.serialNumber');
  }
  return listInstallations(db, companyId, consumerId);
}

type Transaction = LifecycleTransactionRequest & {
  reading: number | null;
  comments: string | null;
  newMeter: NewMeter | null;
  extraCharge: { amount: string; description: string } | null;
};

/**
 * A lifecycle transaction (spec §3 kinds 11–15, 99) in one database transaction: its row, the
 * extra charge it brings (kind 5, for billing to pick up), what it does to the consumer and its
 * meter (stop, reconnect, pull off, swap) and the audit line.
 */
export async function addTransaction(
  db: Db,
  principal: Principal,
  companyId: number,
  consumerId: number,
  input: Transaction,
  requestId: string,
): Promise<ConsumerTransaction[]> {
  try {
    await db.transaction(async (tx) => {
      const consumer = await lockConsumer(tx, companyId, consumerId);
      const installation = await activeInstallation(tx, consumerId);
      const fail = (field: string, key: string, params: Record<string, string | number> = {}) => {
        throw badRequest([{ field, key, params }]);
      };
      const needsMeter =
        input.kind === lifecycleKinds.pullOff || input.kind === lifecycleKinds.meterReplacement;
      if (!installation && (needsMeter || input.reading !== null))
        fail(needsMeter ? 'kind' : 'reading', 'validation.no_meter');
      if (input.kind === lifecycleKinds.stop && consumer.disconnectionDate !== null)
        fail('kind', 'validation.already_stopped');
      if (input.kind === lifecycleKinds.reconnect && consumer.disconnectionDate === null)
        fail('kind', 'validation.not_stopped');

      // Dates in order: not before the meter went on, nor before the consumer's last transaction.
      const [last] = await tx
        .select({ date: waterConsumerTransactions.date })
        .from(waterConsumerTransactions)
        .where(eq(waterConsumerTransactions.consumerId, consumerId))
        .orderBy(desc(waterConsumerTransactions.date))
        .limit(1);
      const floor = [last?.date, installation?.installedOn]
        .filter((d): d is string => Boolean(d))
        .sort()
        .pop();
      if (floor && input.date < floor) fail('date', 'validation.date_before_previous', { date: floor });

      let previous: number | null = null;
      let meter: { id: number; digits: number; direction: number } | null = null;
      if (installation) {
        const [m] = await tx
          .select({ id: waterMeters.id, digits: waterMeters.digits, direction: waterMeters.direction })
          .from(waterMeters)
          .where(eq(waterMeters.id, installation.meterId));
        meter = m ?? null;
        previous = await lastReading(tx, installation);
      }
      if (input.reading !== null && previous !== null && meter) {
        const consumption = meterConsumption(
          previous,
          input.reading,
          meter.digits,
          meter.direction === -1 ? -1 : 1,
        );
        // A lower reading that is no rollover (a replaced dial, a typing error) needs a reason.
        if (consumption === null && !input.comments)
          fail('reading', 'validation.reading_lower', { previous });
      }

      let newMeterId: number | null = null;
      if (input.kind === lifecycleKinds.meterReplacement && input.newMeter && installation) {
        await tx
          .update(waterMeterInstallations)
          .set({ removedOn: input.date, finalReading: input.reading, ...updatedBy(principal.username) })
          .where(eq(waterMeterInstallations.id, installation.id));
        newMeterId = await createMeter(tx, principal, companyId, input.newMeter, 'newMeter.serialNumber');
        await tx.insert(waterMeterInstallations).values({
          companyId,
          consumerId,
          meterId: newMeterId,
          installedOn: input.date,
          initialReading: input.newMeter.initialReading,
          createuser: principal.username,
        });
      }
      if (input.kind === lifecycleKinds.pullOff && installation) {
        await tx
          .update(waterMeterInstallations)
          .set({ removedOn: input.date, finalReading: input.reading, ...updatedBy(principal.username) })
          .where(eq(waterMeterInstallations.id, installation.id));
      }
      if (input.kind === lifecycleKinds.stop || input.kind === lifecycleKinds.reconnect) {
        await tx
          .update(waterConsumers)
          .set({
            disconnectionDate: input.kind === lifecycleKinds.stop ? input.date : null,
            ...updatedBy(principal.username),
          })
          .where(eq(waterConsumers.id, consumerId));
      }

      const [row] = await tx
        .insert(waterConsumerTransactions)
        .values({
          companyId,
          consumerId,
          kind: input.kind,
          date: input.date,
          reading: input.reading,
          previousReading: input.reading === null ? null : previous,
          meterId: installation?.meterId ?? null,
          newMeterId,
          newReading: input.newMeter?.initialReading ?? null,
          comments: input.comments,
          createuser: principal.username,
        })
        .returning({ id: waterConsumerTransactions.id });
      if (input.extraCharge) {
        await tx.insert(waterConsumerTransactions).values({
          companyId,
          consumerId,
          kind: EXTRA_CHARGE_KIND,
          date: input.date,
          parentId: row?.id ?? null,
          amount: input.extraCharge.amount,
          comments: input.extraCharge.description,
          createuser: principal.username,
        });
      }
      await recordAudit(tx, {
        entity: 'consumer',
        entityId: consumerId,
        action: `transaction_${input.kind}`,
        companyId,
        user: principal,
        requestId,
        changes: {
          transaction: {
            before: null,
            after: {
              id: row?.id,
              date: input.date,
              reading: input.reading,
              extraCharge: input.extraCharge?.amount ?? null,
            },
          },
        },
      });
    });
  } catch (error) {
    serialConflict(error, 'newMeter.serialNumber');
  }
  return listTransactions(db, companyId, consumerId);
}

async function ownConsumer(db: Db, companyId: number, consumerId: number) {
  const [row] = await db
    .select({ id: waterConsumers.id })
    .from(waterConsumers)
    .where(and(eq(waterConsumers.id, consumerId), eq(waterConsumers.companyId, companyId)));
  if (!row) throw notFound();
}

/** The consumer's meters, the one on first, then by installation date, latest first. */
export async function listInstallations(
  db: Db,
  companyId: number,
  consumerId: number,
): Promise<MeterInstallation[]> {
  await ownConsumer(db, companyId, consumerId);
  const rows = await db
    .select({ i: waterMeterInstallations, m: waterMeters, type: waterMeterTypes.description })
    .from(waterMeterInstallations)
    .innerJoin(waterMeters, eq(waterMeters.id, waterMeterInstallations.meterId))
    .leftJoin(waterMeterTypes, eq(waterMeterTypes.id, waterMeters.meterTypeId))
    .where(eq(waterMeterInstallations.consumerId, consumerId))
    .orderBy(desc(waterMeterInstallations.installedOn), desc(waterMeterInstallations.id));
  return Promise.all(
    rows.map(async ({ i, m, type }) => ({
      id: i.id,
      meterId: m.id,
      serialNumber: m.serialNumber,
      meterType: type,
      kind: m.kind,
      direction: m.direction,
      diameter: m.diameter,
      digits: m.digits,
      installedOn: i.installedOn,
      initialReading: i.initialReading,
      removedOn: i.removedOn,
      finalReading: i.finalReading,
      lastReading: await lastReading(db, i),
    })),
  );
}

const oldMeter = alias(waterMeters, 'old_meter');
const newMeter = alias(waterMeters, 'new_meter');

/** The consumer's timeline: its transactions, latest first. */
export async function listTransactions(
  db: Db,
  companyId: number,
  consumerId: number,
): Promise<ConsumerTransaction[]> {
  await ownConsumer(db, companyId, consumerId);
  const where: SQL | undefined = eq(waterConsumerTransactions.consumerId, consumerId);
  const rows = await db
    .select({
      t: waterConsumerTransactions,
      oldSerial: oldMeter.serialNumber,
      oldDigits: oldMeter.digits,
      newSerial: newMeter.serialNumber,
      newDigits: newMeter.digits,
    })
    .from(waterConsumerTransactions)
    .leftJoin(oldMeter, eq(oldMeter.id, waterConsumerTransactions.meterId))
    .leftJoin(newMeter, eq(newMeter.id, waterConsumerTransactions.newMeterId))
    .where(where)
    .orderBy(desc(waterConsumerTransactions.date), desc(waterConsumerTransactions.id));
  const installations = await listInstallations(db, companyId, consumerId);
  return rows.map(({ t, oldSerial, oldDigits, newSerial, newDigits }) => {
    let across: number | null = null;
    if (
      t.kind === lifecycleKinds.meterReplacement &&
      t.reading !== null &&
      t.previousReading !== null &&
      t.newReading !== null
    ) {
      const current = installations.find((i) => i.meterId === t.newMeterId)?.lastReading ?? t.newReading;
      across = swapConsumption({
        oldPrevious: t.previousReading,
        oldFinal: t.reading,
        newInitial: t.newReading,
        newCurrent: current,
        oldDigits,
        newDigits,
      });
    }
    return {
      id: t.id,
      kind: t.kind,
      date: t.date,
      parentId: t.parentId,
      reading: t.reading,
      serialNumber: oldSerial,
      newSerialNumber: newSerial,
      newReading: t.newReading,
      // numeric(12,2) reads as a decimal string with its two decimals.
      amount: t.amount,
      comments: t.comments,
      swapConsumption: across,
      billedOn: t.billedOn,
      createuser: t.createuser,
      createdate: t.createdate?.toISOString() ?? null,
    };
  });
}
