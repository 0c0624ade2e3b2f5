import type { DiscountPolicy } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import type { Tariff } from '../../platform/domain/billing.ts';
import type { BillingConsumer, BillingContext, ConsumerCharges } from './billing.context.ts';
import { compute } from './bills.service.ts';
import { computeOnce } from './runs.compute.ts';

/**
 * A run computes the bill of each distinct class of consumer and consumption once and shares it:
 * every field the bill depends on must tell two consumers apart. Each consumer below differs from the
 * first in one such field, and its bill must be its own, equal to the bill computed alone.
 */
const vat = {
  waterFixed: '13',
  sewerageFixed: '13',
  water: '13',
  sewerage: '13',
  specialFee: '24',
  resource: '13',
  environmental: '13',
  extra: '24',
};
const tariff = (id: number, price: string): Tariff => ({
  id,
  description: `Tariff ${id}`,
  fromdate: '2020-01-01',
  todate: null,
  baseMonths: 4,
  fixedCharges: [
    { charge: 'waterFixed', pipeDiameterId: null, amount: '6.00' },
    { charge: 'waterFixed', pipeDiameterId: 2, amount: '15.00' },
    { charge: 'sewerageFixed', pipeDiameterId: null, amount: '3.00' },
  ],
  bands: [
    { upTo: '15', price: '0.40' },
    { upTo: null, price },
  ],
  sewerageMode: 'percent',
  sewerageValue: '60',
  sewerageIndicatorIds: [1],
  specialFees: [],
  vat,
});
const social: DiscountPolicy = {
  id: 1,
  description: 'Πολύτεκνοι',
  fromdate: '2020-01-01',
  todate: '2026-06-30',
  reduction: 1,
  amountType: 2,
  calculation: 2,
  amount: '50',
  charges: ['water'],
  specialRegulationIds: [7],
};
const policy = (minConsumption: number) => ({
  months: 4,
  expiredays: 30,
  resourceTax: '0.07',
  envTax: '0.10',
  minConsumption,
});
const context = (): BillingContext => ({
  tariffsByUsage: new Map([
    [1, [tariff(1, '0.90')]],
    [2, [tariff(2, '1.80')]],
  ]),
  discounts: [social],
  invoicePolicies: new Map([
    [1, policy(5)],
    [2, policy(30)],
  ]),
});
const first: BillingConsumer = {
  id: 1,
  propertyUsageId: 1,
  invoicePolicyId: 1,
  pipeDiameterId: 1,
  sewerageIndicatorId: 1,
  specialRegulationId: 7,
  specialFrom: null,
  specialTo: null,
};
const none: ConsumerCharges = { extras: new Map(), unpaid: new Map() };
const period = { from: '2026-01-01', to: '2026-04-30' };

describe('bills shared within a run', () => {
  it('shares the bill of an equal consumer and consumption, and tells apart every field a bill depends on', () => {
    const run = context();
    const base = computeOnce(run, first, none, period, '20');
    expect(computeOnce(run, { ...first, id: 2 }, none, period, '20')).toBe(base);
    const others: [string, BillingConsumer, { from: string; to: string }, string][] = [
      ['usage', { ...first, id: 3, propertyUsageId: 2 }, period, '20'],
      ['invoice policy', { ...first, id: 4, invoicePolicyId: 2 }, period, '20'],
      ['diameter', { ...first, id: 5, pipeDiameterId: 2 }, period, '20'],
      ['sewerage', { ...first, id: 6, sewerageIndicatorId: 2 }, period, '20'],
      ['regulation', { ...first, id: 7, specialRegulationId: null }, period, '20'],
      ['regulation from', { ...first, id: 8, specialFrom: '2026-03-01' }, period, '20'],
      ['regulation to', { ...first, id: 9, specialTo: '2026-02-28' }, period, '20'],
      ['period', { ...first, id: 10 }, { from: '2026-05-01', to: '2026-08-31' }, '20'],
      ['consumption', { ...first, id: 11 }, period, '21'],
    ];
    for (const [field, consumer, days, consumption] of others) {
      const shared = computeOnce(run, consumer, none, days, consumption);
      expect(shared, field).toEqual(compute(context(), consumer, none, days, consumption));
      expect(shared.bill.total, field).not.toBe(base.bill.total);
    }
  });

  it('computes a consumer with extra charges or unpaid bills on its own', () => {
    const run = context();
    const base = computeOnce(run, first, none, period, '20');
    const extras: ConsumerCharges = {
      extras: new Map([
        [2, [{ transactionId: 9, date: '2026-02-01', description: 'Επανασύνδεση', amount: '25.00' }]],
      ]),
      unpaid: new Map(),
    };
    const unpaid: ConsumerCharges = {
      extras: new Map(),
      unpaid: new Map([[3, [{ billId: 4, description: 'Γ΄ τετράμηνο 2025', amount: '40.00' }]]]),
    };
    const withExtra = computeOnce(run, { ...first, id: 2 }, extras, period, '20');
    const withUnpaid = computeOnce(run, { ...first, id: 3 }, unpaid, period, '20');
    expect(withExtra.bill.net).toBe(compute(context(), { ...first, id: 2 }, extras, period, '20').bill.net);
    expect(withExtra.bill.net).not.toBe(base.bill.net);
    expect(withUnpaid.bill.total).not.toBe(base.bill.total);
    expect(computeOnce(run, { ...first, id: 4 }, none, period, '20')).toBe(base);
  });
});
