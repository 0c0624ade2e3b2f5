import {
  type BankLayout,
  type BankLine,
  bankErrors,
  defaultBankLayouts,
  type MatchBankLine,
  type matchBankLineSchema,
  type saveBankLayoutSchema,
} from '@protocol/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { SYSTEM_USER, updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/jobs.ts';
import type { Storage } from '../../platform/storage.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { BANK_CASHIER, BANK_IMPORT_JOB, type BankImportPayload } from './bank.import.ts';
import { bankLine, fileSummary } from './bank.report.ts';
import { storePayment } from './cashier.service.ts';
import { paymentsBankFiles, paymentsBankLayouts, paymentsBankLines } from './payments.schema.ts';

/** Bank file layouts (a settings screen), the upload that queues an import, and matching by hand. */

type SaveLayout = z.output<typeof saveBankLayoutSchema>;

const layoutColumns = {
  id: paymentsBankLayouts.id,
  code: paymentsBankLayouts.code,
  descr: paymentsBankLayouts.descr,
  format: paymentsBankLayouts.format,
  separator: paymentsBankLayouts.separator,
  headerLines: paymentsBankLayouts.headerLines,
  recordPrefix: paymentsBankLayouts.recordPrefix,
  amountInCents: paymentsBankLayouts.amountInCents,
  decimalComma: paymentsBankLayouts.decimalComma,
  dateFormat: paymentsBankLayouts.dateFormat,
  fields: paymentsBankLayouts.fields,
  active: paymentsBankLayouts.active,
};

export async function bankLayouts(tx: Tx, companyId: number): Promise<BankLayout[]> {
  return tx
    .select(layoutColumns)
    .from(paymentsBankLayouts)
    .where(eq(paymentsBankLayouts.companyId, companyId))
    .orderBy(asc(paymentsBankLayouts.code));
}

async function layoutOf(tx: Tx, companyId: number, id: number): Promise<BankLayout> {
  const [layout] = await tx
    .select(layoutColumns)
    .from(paymentsBankLayouts)
    .where(and(eq(paymentsBankLayouts.id, id), eq(paymentsBankLayouts.companyId, companyId)));
  if (!layout) throw notFound();
  return layout;
}

const codeTaken = (error: unknown) => {
  if (pgError(error)?.code === UNIQUE_VIOLATION)
    return new AppError(409, bankErrors.codeTaken, {}, [
      { field: 'code', key: bankErrors.codeTaken, params: {} },
    ]);
  return error;
};

export async function saveBankLayout(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number | null,
  body: SaveLayout,
  requestId: string,
): Promise<BankLayout> {
  try {
    return await db.transaction(async (tx) => {
      let layoutId = id;
      if (layoutId === null) {
        const [row] = await tx
          .insert(paymentsBankLayouts)
          .values({ ...body, companyId, createuser: principal.username })
          .returning({ id: paymentsBankLayouts.id });
        layoutId = row?.id ?? 0;
      } else {
        await layoutOf(tx, companyId, layoutId);
        await tx
          .update(paymentsBankLayouts)
          .set({ ...body, ...updatedBy(principal.username) })
          .where(eq(paymentsBankLayouts.id, layoutId));
      }
      await recordAudit(tx, {
        entity: 'payments.bankLayout',
        entityId: layoutId,
        action: id === null ? 'create' : 'update',
        companyId,
        user: principal,
        requestId,
      });
      return layoutOf(tx, companyId, layoutId);
    });
  } catch (error) {
    throw codeTaken(error);
  }
}

/** A new company's layouts (and the demo company's): the e-banking CSV and the banks' fixed width. */
export async function seedBankLayouts(tx: Tx, companyId: number, username = SYSTEM_USER): Promise<void> {
  await tx
    .insert(paymentsBankLayouts)
    .values(defaultBankLayouts.map((l) => ({ ...l, companyId, createuser: username })))
    .onConflictDoNothing();
}

/**
 * Stores the uploaded file on the storage adapter (kept: it is the bank's record of the payments, and
 * the job may run on another node) and, in one transaction, its row and its import job.
 */
export async function startBankImport(
  db: Db,
  jobs: JobQueue,
  storage: Storage,
  principal: Principal,
  companyId: number,
  upload: { layoutId: number; fileName: string; content: Buffer },
): Promise<{ jobId: number; fileId: number }> {
  // Stored first: a rolled-back transaction leaves an object no row names, which the sweep removes.
  const { key } = await storage.put(upload.content);
  return db.transaction(async (tx) => {
    const layout = await layoutOf(tx, companyId, upload.layoutId);
    if (!layout.active) throw new AppError(409, bankErrors.layoutInactive, { code: layout.code });
    const [file] = await tx
      .insert(paymentsBankFiles)
      .values({
        companyId,
        layoutId: layout.id,
        fileName: upload.fileName.slice(0, 200),
        storageKey: key,
        createuser: principal.username,
      })
      .returning({ id: paymentsBankFiles.id });
    const fileId = file?.id ?? 0;
    const payload: BankImportPayload = { fileId, companyId, username: principal.username };
    const { job } = await jobs.enqueue(tx, {
      kind: BANK_IMPORT_JOB,
      key: `${BANK_IMPORT_JOB}:${fileId}`,
      companyId,
      owner: principal.userId,
      payload,
    });
    await tx.update(paymentsBankFiles).set({ jobId: job.id }).where(eq(paymentsBankFiles.id, fileId));
    return { jobId: job.id, fileId };
  });
}

/**
 * Staff match an unmatched line to a consumer: its amount becomes the consumer's bank payment (dated
 * as the bank paid it, its receipt from the series), paying the debts chosen or the oldest first,
 * the rest as credit. The line is locked, so two operators cannot match it twice.
 */
export async function matchBankLine(
  db: Db,
  principal: Principal,
  companyId: number,
  lineId: number,
  body: z.output<typeof matchBankLineSchema>,
  requestId: string,
): Promise<BankLine> {
  return db.transaction(async (tx) => {
    const [line] = await tx
      .select()
      .from(paymentsBankLines)
      .where(and(eq(paymentsBankLines.id, lineId), eq(paymentsBankLines.companyId, companyId)))
      .for('update');
    if (!line) throw notFound();
    if (line.status !== 'unmatched' || !line.amount || !line.date)
      throw new AppError(409, bankErrors.lineNotUnmatched);
    const [consumer] = await tx
      .select({ id: waterConsumers.id })
      .from(waterConsumers)
      .where(and(eq(waterConsumers.id, body.consumerId), eq(waterConsumers.companyId, companyId)));
    if (!consumer) throw notFound();
    const { id: paymentId } = await storePayment(tx, companyId, BANK_CASHIER, {
      consumerId: consumer.id,
      method: 'bank',
      amount: line.amount,
      date: line.date,
      debtIds: body.debtIds,
      reference: line.bankReference,
      note: line.payer,
    });
    await tx
      .update(paymentsBankLines)
      .set({ status: 'manual', reason: 'manual', consumerId: consumer.id, paymentId })
      .where(eq(paymentsBankLines.id, line.id));
    // The file's report counts it as matched by hand from now on.
    await tx
      .update(paymentsBankFiles)
      .set({ summary: await fileSummary(tx, line.fileId) })
      .where(eq(paymentsBankFiles.id, line.fileId));
    await recordAudit(tx, {
      entity: 'payments.bankLine',
      entityId: line.id,
      action: 'match',
      companyId,
      user: principal,
      requestId,
    });
    return bankLine(tx, companyId, line.id);
  });
}

export type { MatchBankLine };
