import { DEFAULT_ACCOUNT_MASK, type SeriesKind } from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { DemoContext } from '../../platform/module.ts';
import {
  financeAccounts,
  financeItems,
  financeSeries,
  financeServices,
  financeSettings,
  financeWarehouses,
} from './finance.schema.ts';

type DefaultSeries = {
  code: string;
  descr: string;
  kind: SeriesKind;
  mydataType: string | null;
  movesStock: boolean;
  printype: number;
  debitCredit: 1 | 2;
};

/**
 * The series every company starts with: invoices, receipts, delivery notes and orders, the credit
 * note series the invoices' corrections go to, the water-bill series billing issues its bills in and
 * its credit series (a finalized bill's corrections).
 */
const DEFAULT_SERIES: DefaultSeries[] = [
  {
    code: 'ΤΔΑ',
    descr: 'Τιμολόγιο - Δελτίο Αποστολής',
    kind: 'salesInvoice',
    mydataType: '1.1',
    movesStock: true,
    printype: 2,
    debitCredit: 1,
  },
  {
    code: 'ΤΠΥ',
    descr: 'Τιμολόγιο Παροχής Υπηρεσιών',
    kind: 'servicesInvoice',
    mydataType: '2.1',
    movesStock: false,
    printype: 2,
    debitCredit: 1,
  },
  {
    code: 'ΑΛΠ',
    descr: 'Απόδειξη Λιανικής Πώλησης',
    kind: 'retailReceipt',
    mydataType: '11.1',
    movesStock: true,
    printype: 1,
    debitCredit: 1,
  },
  {
    code: 'ΠΤΕ',
    descr: 'Πιστωτικό Τιμολόγιο',
    kind: 'creditNote',
    mydataType: '5.1',
    movesStock: true,
    printype: 2,
    debitCredit: 2,
  },
  {
    code: 'ΔΑ',
    descr: 'Δελτίο Αποστολής',
    kind: 'deliveryNote',
    mydataType: null,
    movesStock: true,
    printype: 0,
    debitCredit: 1,
  },
  {
    code: 'ΔΠ',
    descr: 'Δελτίο Παραλαβής',
    kind: 'goodsReceipt',
    mydataType: null,
    movesStock: true,
    printype: 0,
    // Debit/credit 2: its items come into the warehouse.
    debitCredit: 2,
  },
  {
    code: 'ΠΑΡ',
    descr: 'Παραγγελία',
    kind: 'order',
    mydataType: null,
    movesStock: false,
    printype: 0,
    debitCredit: 1,
  },
  {
    code: 'ΛΥΔ',
    descr: 'Λογαριασμός Ύδρευσης',
    kind: 'waterBill',
    mydataType: '11.2',
    movesStock: false,
    printype: 0,
    debitCredit: 1,
  },
  {
    code: 'ΠΛΥ',
    descr: 'Πιστωτικό Λογαριασμού Ύδρευσης',
    kind: 'creditNote',
    mydataType: '11.4',
    movesStock: false,
    printype: 0,
    debitCredit: 2,
  },
];
/** The series whose corrections are issued as credit notes (ΠΤΕ). */
const CREDITED = ['ΤΔΑ', 'ΤΠΥ', 'ΑΛΠ'];

/** A new company's finance settings, series and main warehouse; nothing twice when run again. */
export async function seedFinanceDefaults(tx: Tx, companyId: number, createuser: string): Promise<void> {
  const [existing] = await tx
    .select({ id: financeSeries.id })
    .from(financeSeries)
    .where(eq(financeSeries.companyId, companyId))
    .limit(1);
  if (existing) return;
  await tx
    .insert(financeSettings)
    .values({ companyId, accountMask: DEFAULT_ACCOUNT_MASK, createuser })
    .onConflictDoNothing();
  const series = await tx
    .insert(financeSeries)
    .values(
      DEFAULT_SERIES.map((s, index) => ({ companyId, ...s, seqnr: (index + 1) * 10, copies: 1, createuser })),
    )
    .returning({ id: financeSeries.id, code: financeSeries.code });
  const credit = series.find((s) => s.code === 'ΠΤΕ');
  for (const s of series.filter((s) => CREDITED.includes(s.code))) {
    await tx
      .update(financeSeries)
      .set({ relseqid: credit?.id ?? null })
      .where(eq(financeSeries.id, s.id));
  }
  // The water bills' credits (billing's kind 4) are numbered in a series of their own.
  const waterCredit = series.find((s) => s.code === 'ΠΛΥ');
  const waterBill = series.find((s) => s.code === 'ΛΥΔ');
  if (waterCredit && waterBill)
    await tx
      .update(financeSeries)
      .set({ relseqid: waterCredit.id })
      .where(eq(financeSeries.id, waterBill.id));
  await tx
    .insert(financeWarehouses)
    .values({ companyId, code: 'ΚΑ', descr: 'Κεντρική αποθήκη', type: 1, createuser });
}

/** The demo utility's accounting plan (income accounts of water and services), services and items. */
export async function seedFinanceDemo(tx: Tx, { companyId, admin }: DemoContext): Promise<void> {
  const createuser = admin.username;
  const accounts = await tx
    .insert(financeAccounts)
    .values(
      (
        [
          ['70', 'Πωλήσεις εμπορευμάτων', 1, 1],
          ['70.00', 'Πωλήσεις υλικών', 1, 1],
          ['70.00.00', 'Πωλήσεις υλικών ύδρευσης', 1, 1],
          ['70.00.00.0001', 'Πωλήσεις υδρομέτρων', 1, 0],
          ['73', 'Πωλήσεις υπηρεσιών', 1, 1],
          ['73.00', 'Έσοδα ύδρευσης', 1, 1],
          ['73.00.00', 'Έσοδα από νερό', 1, 1],
          ['73.00.00.0001', 'Κατανάλωση νερού', 1, 0],
          ['73.00.00.0002', 'Τέλη σύνδεσης ύδρευσης', 1, 0],
          ['73.00.00.0003', 'Επανασυνδέσεις - αντικαταστάσεις', 1, 0],
          ['64', 'Διάφορα έξοδα', 2, 1],
          ['64.00', 'Έξοδα μεταφορών', 2, 0],
        ] as const
      ).map(([code, descr, kind, aggregate]) => ({ companyId, code, descr, kind, aggregate, createuser })),
    )
    .returning({ id: financeAccounts.id, code: financeAccounts.code });
  const account = (code: string) => accounts.find((a) => a.code === code)?.id ?? null;
  await tx.insert(financeServices).values([
    {
      companyId,
      code: 'ΥΠ01',
      descr: 'Τέλος σύνδεσης ύδρευσης',
      unit: 'τεμ.',
      price: '150.0000',
      vatPercent: '24.00',
      vatCategory: 1,
      accountId: account('73.00.00.0002'),
      createuser,
    },
    {
      companyId,
      code: 'ΥΠ02',
      descr: 'Επανασύνδεση παροχής',
      unit: 'τεμ.',
      price: '40.0000',
      vatPercent: '24.00',
      vatCategory: 1,
      accountId: account('73.00.00.0003'),
      createuser,
    },
    {
      companyId,
      code: 'ΥΠ03',
      descr: 'Αντικατάσταση υδρομέτρου',
      unit: 'τεμ.',
      price: '35.0000',
      vatPercent: '24.00',
      vatCategory: 1,
      accountId: account('73.00.00.0003'),
      createuser,
    },
  ]);
  const [warehouse] = await tx
    .select({ id: financeWarehouses.id })
    .from(financeWarehouses)
    .where(and(eq(financeWarehouses.companyId, companyId), eq(financeWarehouses.code, 'ΚΑ')));
  await tx.insert(financeItems).values([
    {
      companyId,
      code: 'ΥΔΡ-15',
      descr: 'Υδρόμετρο 1/2" ογκομετρικό',
      barcode: '5201234567894',
      cpv: '38421100-3',
      unit: 'τεμ.',
      purchasePrice: '18.5000',
      salePrice: '32.0000',
      vatPercent: '24.00',
      accountId: account('70.00.00.0001'),
      warehouseId: warehouse?.id ?? null,
      group1: 'Υδρόμετρα',
      createuser,
    },
    {
      companyId,
      code: 'ΣΩΛ-32',
      descr: 'Σωλήνας PE 32 mm',
      barcode: null,
      cpv: '44161000-6',
      unit: 'μ.',
      purchasePrice: '1.2000',
      salePrice: '2.1000',
      vatPercent: '24.00',
      accountId: account('70.00.00.0001'),
      warehouseId: warehouse?.id ?? null,
      group1: 'Σωληνώσεις',
      createuser,
    },
  ]);
}
