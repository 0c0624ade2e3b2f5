import { type SavePricingPolicy, socialTariffs, type VatCharge } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import { vatPercentages } from '../settings/settings-tables.schema.ts';
import {
  waterPipeDiameters,
  waterPropertyUsages,
  waterSewerageIndicators,
  waterSpecialRegulations,
} from '../water/parametrics.schema.ts';
import { billingDiscountPolicies, billingPricingPolicies } from './billing.schema.ts';

/**
 * The demo utility's tariffs as a mid-sized ΔΕΥΑ publishes them (per four months): household water in
 * four bands with a cheap first one, business in three, sewerage as 60% (household) or 75% (business)
 * of the water value, a water fixed charge that grows with the connection's diameter, the meter
 * maintenance fee; water at 13% VAT and the rest at 24%; the glossary's social tariffs.
 */
export async function seedBillingDemo(tx: Tx, companyId: number): Promise<void> {
  const user = { createuser: SYSTEM_USER };
  type Coded = typeof waterPropertyUsages;
  // The coded tables share their columns; read as one of them, each gives code → id.
  const byCode = async (table: unknown) =>
    new Map(
      (
        await tx
          .select({ id: (table as Coded).id, code: (table as Coded).code })
          .from(table as Coded)
          .where(eq((table as Coded).companyId, companyId))
      ).map((r) => [r.code, r.id]),
    );
  const usages = await byCode(waterPropertyUsages);
  const diameters = await byCode(waterPipeDiameters);
  const sewerage = await byCode(waterSewerageIndicators);
  const vat = new Map(
    (await tx.select({ id: vatPercentages.id, code: vatPercentages.code }).from(vatPercentages)).map((v) => [
      v.code,
      v.id,
    ]),
  );
  const [v24, v13] = [vat.get(1), vat.get(2)];
  if (!v24 || !v13) return;
  const vatOf: Record<VatCharge, number> = {
    waterFixed: v13,
    water: v13,
    resource: v13,
    environmental: v13,
    sewerageFixed: v24,
    sewerage: v24,
    specialFee: v24,
    extra: v24,
  };
  const connected = [sewerage.get('SYN')].filter((id): id is number => id !== undefined);
  const diameterFixed = (amounts: [code: string, amount: string][]) =>
    amounts.flatMap(([code, amount]) => {
      const id = diameters.get(code);
      return id ? [{ charge: 'waterFixed' as const, pipeDiameterId: id, amount }] : [];
    });
  const policy = (usage: string, values: Omit<SavePricingPolicy, 'propertyUsageId'>) => {
    const id = usages.get(usage);
    return id ? [{ ...values, propertyUsageId: id, companyId, ...user }] : [];
  };
  const common = {
    fromdate: '2026-01-01',
    todate: null,
    baseMonths: 4,
    sewerageIndicatorIds: connected,
    vat: vatOf,
  };
  await tx.insert(billingPricingPolicies).values([
    ...policy('OIK', {
      ...common,
      description: 'Οικιακό τιμολόγιο 2026',
      fixedCharges: [
        { charge: 'waterFixed', pipeDiameterId: null, amount: '6.0000' },
        ...diameterFixed([
          ['1', '12.0000'],
          ['112', '24.0000'],
          ['2', '36.0000'],
        ]),
        { charge: 'sewerageFixed', pipeDiameterId: null, amount: '3.0000' },
      ],
      bands: [
        { upTo: '20.000', price: '0.4000' },
        { upTo: '40.000', price: '0.8000' },
        { upTo: '60.000', price: '1.2000' },
        { upTo: null, price: '2.0000' },
      ],
      sewerageMode: 'percent',
      sewerageValue: '60.0000',
      specialFees: [{ description: 'Συντήρηση υδρομέτρου', amount: '1.5000' }],
      active: true,
    }),
    ...policy('EPA', {
      ...common,
      description: 'Επαγγελματικό τιμολόγιο 2026',
      fixedCharges: [
        { charge: 'waterFixed', pipeDiameterId: null, amount: '10.0000' },
        { charge: 'sewerageFixed', pipeDiameterId: null, amount: '5.0000' },
      ],
      bands: [
        { upTo: '30.000', price: '0.9000' },
        { upTo: '90.000', price: '1.3000' },
        { upTo: null, price: '1.8000' },
      ],
      sewerageMode: 'percent',
      sewerageValue: '75.0000',
      specialFees: [{ description: 'Συντήρηση υδρομέτρου', amount: '1.5000' }],
      active: true,
    }),
    ...policy('DIM', {
      ...common,
      description: 'Δημοτικά κτίρια 2026',
      fixedCharges: [{ charge: 'waterFixed', pipeDiameterId: null, amount: '5.0000' }],
      bands: [{ upTo: null, price: '0.5000' }],
      sewerageMode: 'perCubicMetre',
      sewerageValue: '0.2000',
      specialFees: [],
      active: true,
    }),
  ]);

  // The glossary's social tariffs: the categories missing from the water demo come in first.
  const regulations = await byCode(waterSpecialRegulations);
  for (const [code, description, documents] of [
    ['NEFRO', 'Νεφροπαθείς (αιμοκάθαρση)', 'Βεβαίωση μονάδας τεχνητού νεφρού'],
    ['MONO', 'Μονογονεϊκές οικογένειες', 'Πιστοποιητικό οικογενειακής κατάστασης'],
    ['TRIT', 'Τρίτεκνοι', 'Πιστοποιητικό οικογενειακής κατάστασης'],
  ] as const) {
    if (regulations.has(code)) continue;
    const [row] = await tx
      .insert(waterSpecialRegulations)
      .values({ companyId, code, description, requiredDocuments: documents, ...user })
      .returning({ id: waterSpecialRegulations.id });
    if (row) regulations.set(code, row.id);
  }
  const id = (code: string) => regulations.get(code) ?? 0;
  const social = socialTariffs(
    { POLY: id('POLY'), AMEA: id('AMEA'), NEFRO: id('NEFRO'), MONO: id('MONO'), TRITEK: id('TRIT') },
    '2026-01-01',
  );
  await tx.insert(billingDiscountPolicies).values([
    ...social.map(({ id: _id, ...policy }) => ({ ...policy, companyId, active: true, ...user })),
    {
      companyId,
      description: 'Ευπαθείς ομάδες – έκπτωση παγίου 2 €/μήνα',
      fromdate: '2026-01-01',
      todate: null,
      reduction: 1,
      amountType: 1,
      calculation: 2,
      amount: '2.00',
      charges: ['waterFixed'],
      specialRegulationIds: [id('EYP')].filter((r) => r > 0),
      active: true,
      ...user,
    },
  ]);
}
