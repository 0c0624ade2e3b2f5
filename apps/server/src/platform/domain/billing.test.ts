import { type DiscountPolicy, documentVatRounding, socialTariffs, sum, vatByRate } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { type BillInput, BillingError, computeBill, daysInclusive, type Tariff } from './billing.ts';

/*
 * Bills computed by hand (the comments show the arithmetic), written as tables of the expected lines:
 * [charge, band or target, quantity, amount, VAT %]. Water and its fixed charge at 13%, the rest at 24%.
 */

const VAT = {
  waterFixed: '13',
  water: '13',
  resource: '13',
  environmental: '13',
  sewerageFixed: '24',
  sewerage: '24',
  specialFee: '24',
  extra: '24',
};
/** Household tariff per four months: 0–15 0.40, 15–30 0.80, 30–60 1.20, 60+ 2.00 €/m³, sewerage 60%. */
const household: Tariff = {
  id: 1,
  description: 'Οικιακό 2026',
  fromdate: '2026-01-01',
  todate: null,
  baseMonths: 4,
  fixedCharges: [
    { charge: 'waterFixed', pipeDiameterId: null, amount: '6.00' },
    { charge: 'waterFixed', pipeDiameterId: 2, amount: '12.00' },
    { charge: 'sewerageFixed', pipeDiameterId: null, amount: '3.00' },
  ],
  bands: [
    { upTo: '15', price: '0.40' },
    { upTo: '30', price: '0.80' },
    { upTo: '60', price: '1.20' },
    { upTo: null, price: '2.00' },
  ],
  sewerageMode: 'percent',
  sewerageValue: '60',
  sewerageIndicatorIds: [1],
  specialFees: [{ description: 'Συντήρηση υδρομέτρου', amount: '1.50' }],
  vat: VAT,
};
const period = { from: '2026-01-01', to: '2026-04-30', months: 4 };
const consumer = {
  pipeDiameterId: null,
  sewerageIndicatorId: 1,
  specialRegulationId: null,
  specialFrom: null,
  specialTo: null,
};
const base: BillInput = {
  period,
  consumption: '25',
  consumer,
  tariffs: [household],
  invoicePolicy: { resourceTax: '0.035', envTax: '0.05', minConsumption: 5 },
  discounts: [],
  extraCharges: [],
  previousBalance: [],
};
const discount = (over: Partial<DiscountPolicy>): DiscountPolicy => ({
  id: 7,
  description: 'Πολύτεκνοι',
  fromdate: '2026-01-01',
  todate: null,
  reduction: 1,
  amountType: 2,
  calculation: 2,
  amount: '50',
  charges: ['water'],
  specialRegulationIds: [3],
  ...over,
});

type Row = [
  charge: string,
  bandOrTarget: number | string | null,
  quantity: string | null,
  amount: string,
  vat: string,
];
interface Case {
  name: string;
  input: BillInput;
  lines: Row[];
  vat: [rate: string, net: string, vat: string][];
  total: string;
}

/** Bill 1: 25 m³ in four months (the reference bill the others vary). */
const bill1: Row[] = [
  ['waterFixed', null, null, '6.00', '13.00'],
  ['sewerageFixed', null, null, '3.00', '24.00'],
  ['water', 1, '15.000', '6.00', '13.00'], // 15 × 0.40
  ['water', 2, '10.000', '8.00', '13.00'], // 10 × 0.80
  ['sewerage', null, null, '8.40', '24.00'], // 60% of 14.00
  ['specialFee', null, null, '1.50', '24.00'],
  ['resource', null, '25.000', '0.88', '13.00'], // 25 × 0.035 = 0.875 → 0.88
  ['environmental', null, '25.000', '1.25', '13.00'],
];

const cases: Case[] = [
  {
    // 13%: 22.13 → 2.8769 → 2.88 (line by line it would be 2.87); 24%: 12.90 → 3.096 → 3.10
    name: '1. 25 m³, two bands, sewerage 60%',
    input: base,
    lines: bill1,
    vat: [
      ['24.00', '12.90', '3.10'],
      ['13.00', '22.13', '2.88'],
    ],
    total: '41.01',
  },
  {
    // 3 m³ under the minimum of 5: 5 m³ charged; not connected to the sewerage
    name: '2. minimum consumption, no sewerage',
    input: { ...base, consumption: '3', consumer: { ...consumer, sewerageIndicatorId: 2 } },
    lines: [
      ['waterFixed', null, null, '6.00', '13.00'],
      ['water', 1, '5.000', '2.00', '13.00'],
      ['specialFee', null, null, '1.50', '24.00'],
      ['resource', null, '5.000', '0.18', '13.00'], // 0.175 → 0.18
      ['environmental', null, '5.000', '0.25', '13.00'],
    ],
    vat: [
      ['24.00', '1.50', '0.36'],
      ['13.00', '8.43', '1.10'], // 1.0959
    ],
    total: '11.39',
  },
  {
    // 75 m³ on a 3/4" connection: all four bands, the diameter's fixed charge
    name: '3. four bands, fixed charge per diameter',
    input: { ...base, consumption: '75', consumer: { ...consumer, pipeDiameterId: 2 } },
    lines: [
      ['waterFixed', null, null, '12.00', '13.00'],
      ['sewerageFixed', null, null, '3.00', '24.00'],
      ['water', 1, '15.000', '6.00', '13.00'],
      ['water', 2, '15.000', '12.00', '13.00'],
      ['water', 3, '30.000', '36.00', '13.00'],
      ['water', 4, '15.000', '30.00', '13.00'],
      ['sewerage', null, null, '50.40', '24.00'], // 60% of 84.00
      ['specialFee', null, null, '1.50', '24.00'],
      ['resource', null, '75.000', '2.63', '13.00'], // 2.625
      ['environmental', null, '75.000', '3.75', '13.00'],
    ],
    vat: [
      ['24.00', '54.90', '13.18'], // 13.176
      ['13.00', '102.38', '13.31'], // 13.3094
    ],
    total: '183.77',
  },
  {
    // Two months: bands 7.5/15/30, fixed charges and fee halved
    name: '4. a two-month period scales bands and fixed charges',
    input: { ...base, consumption: '20', period: { from: '2026-01-01', to: '2026-02-28', months: 2 } },
    lines: [
      ['waterFixed', null, null, '3.00', '13.00'],
      ['sewerageFixed', null, null, '1.50', '24.00'],
      ['water', 1, '7.500', '3.00', '13.00'],
      ['water', 2, '7.500', '6.00', '13.00'],
      ['water', 3, '5.000', '6.00', '13.00'],
      ['sewerage', null, null, '9.00', '24.00'],
      ['specialFee', null, null, '0.75', '24.00'],
      ['resource', null, '20.000', '0.70', '13.00'],
      ['environmental', null, '20.000', '1.00', '13.00'],
    ],
    vat: [
      ['24.00', '11.25', '2.70'],
      ['13.00', '19.70', '2.56'], // 2.561
    ],
    total: '36.21',
  },
  {
    // Social tariff: 50% of the consumption (14.00) for a large family
    name: '5. social discount 50% on consumption',
    input: {
      ...base,
      consumer: { ...consumer, specialRegulationId: 3, specialFrom: '2025-06-01', specialTo: '2026-05-31' },
      discounts: [discount({})],
    },
    lines: [...bill1, ['discount', 'water', null, '-7.00', '13.00']],
    vat: [
      ['24.00', '12.90', '3.10'],
      ['13.00', '15.13', '1.97'], // 1.9669
    ],
    total: '33.10',
  },
  {
    // The regulation ends on 28/2: 59 of 120 days, 14.00 × 50% × 59/120 = 3.4417 → 3.44
    name: '6. discount for the days the regulation is valid',
    input: {
      ...base,
      consumer: { ...consumer, specialRegulationId: 3, specialFrom: '2025-06-01', specialTo: '2026-02-28' },
      discounts: [discount({})],
    },
    lines: [...bill1, ['discount', 'water', null, '-3.44', '13.00']],
    vat: [
      ['24.00', '12.90', '3.10'],
      ['13.00', '18.69', '2.43'], // 2.4297
    ],
    total: '37.12',
  },
  {
    // New prices from 1/3: 59 days old (share 59/120), 61 days new; 30 m³ split 14.750 / 15.250
    name: '7. tariff change inside the period, pro rata by days',
    input: {
      ...base,
      consumption: '30',
      tariffs: [
        { ...household, todate: '2026-02-28' },
        {
          ...household,
          id: 2,
          fromdate: '2026-03-01',
          fixedCharges: [
            { charge: 'waterFixed', pipeDiameterId: null, amount: '7.50' },
            { charge: 'sewerageFixed', pipeDiameterId: null, amount: '3.00' },
          ],
          bands: [
            { upTo: '15', price: '0.50' },
            { upTo: '30', price: '1.00' },
            { upTo: '60', price: '1.50' },
            { upTo: null, price: '2.50' },
          ],
        },
      ],
    },
    lines: [
      ['waterFixed', null, null, '2.95', '13.00'], // 6 × 59/120
      ['sewerageFixed', null, null, '1.48', '24.00'], // 1.475
      ['water', 1, '7.375', '2.95', '13.00'], // limit 15 × 59/120 = 7.375
      ['water', 2, '7.375', '5.90', '13.00'],
      ['sewerage', null, null, '5.31', '24.00'], // 60% of 8.85
      ['specialFee', null, null, '0.74', '24.00'], // 0.7375
      ['waterFixed', null, null, '3.81', '13.00'], // 7.50 × 61/120 = 3.8125
      ['sewerageFixed', null, null, '1.53', '24.00'], // 1.525
      ['water', 1, '7.625', '3.81', '13.00'], // 7.625 × 0.50 = 3.8125
      ['water', 2, '7.625', '7.63', '13.00'], // 7.625
      ['sewerage', null, null, '6.86', '24.00'], // 60% of 11.44 = 6.864
      ['specialFee', null, null, '0.76', '24.00'], // 0.7625
      ['resource', null, '30.000', '1.05', '13.00'],
      ['environmental', null, '30.000', '1.50', '13.00'],
    ],
    vat: [
      ['24.00', '16.68', '4.00'], // 4.0032
      ['13.00', '29.60', '3.85'], // 3.848
    ],
    total: '54.13',
  },
  {
    // Business tariff: sewerage € per m³, a reconnection fee and an unpaid earlier bill
    name: '8. sewerage per m³, extra charge, previous balance',
    input: {
      ...base,
      consumption: '40',
      tariffs: [
        {
          ...household,
          id: 3,
          fixedCharges: [{ charge: 'waterFixed', pipeDiameterId: null, amount: '10.00' }],
          bands: [
            { upTo: '30', price: '1.00' },
            { upTo: null, price: '1.50' },
          ],
          sewerageMode: 'perCubicMetre',
          sewerageValue: '0.45',
          specialFees: [],
        },
      ],
      extraCharges: [{ transactionId: 31, date: '2026-02-10', description: 'Επανασύνδεση', amount: '25.00' }],
      previousBalance: [{ billId: 12, description: 'Γ΄ τετράμηνο 2025', amount: '41.01' }],
    },
    lines: [
      ['waterFixed', null, null, '10.00', '13.00'],
      ['water', 1, '30.000', '30.00', '13.00'],
      ['water', 2, '10.000', '15.00', '13.00'],
      ['sewerage', null, '40.000', '18.00', '24.00'],
      ['resource', null, '40.000', '1.40', '13.00'],
      ['environmental', null, '40.000', '2.00', '13.00'],
      ['extra', null, null, '25.00', '24.00'],
      ['previousBalance', null, null, '41.01', '0.00'],
    ],
    vat: [
      ['24.00', '43.00', '10.32'],
      ['13.00', '58.40', '7.59'], // 7.592
    ],
    total: '160.32', // 101.40 + 17.91 + 41.01
  },
  {
    // 2.00 € a month off the fixed charge for four months: −8.00
    name: '9. fixed monthly reduction',
    input: {
      ...base,
      consumption: '10',
      consumer: { ...consumer, sewerageIndicatorId: null, specialRegulationId: 4 },
      discounts: [
        discount({
          amountType: 1,
          calculation: 2,
          amount: '2.00',
          charges: ['waterFixed'],
          specialRegulationIds: [4],
        }),
      ],
    },
    lines: [
      ['waterFixed', null, null, '6.00', '13.00'],
      ['water', 1, '10.000', '4.00', '13.00'],
      ['specialFee', null, null, '1.50', '24.00'],
      ['resource', null, '10.000', '0.35', '13.00'],
      ['environmental', null, '10.000', '0.50', '13.00'],
      ['discount', 'waterFixed', null, '-8.00', '13.00'],
    ],
    vat: [
      ['24.00', '1.50', '0.36'],
      ['13.00', '2.85', '0.37'], // 0.3705
    ],
    total: '5.08',
  },
  {
    // A 10% surcharge on the fixed charge (6.00) and the consumption (14.00)
    name: '10. percent surcharge on two charges',
    input: {
      ...base,
      consumer: { ...consumer, specialRegulationId: 5 },
      discounts: [
        discount({
          reduction: -1,
          amount: '10',
          charges: ['waterFixed', 'water'],
          specialRegulationIds: [5],
        }),
      ],
    },
    lines: [
      ...bill1,
      ['discount', 'waterFixed', null, '0.60', '13.00'],
      ['discount', 'water', null, '1.40', '13.00'],
    ],
    vat: [
      ['24.00', '12.90', '3.10'],
      ['13.00', '24.13', '3.14'], // 3.1369
    ],
    total: '43.27',
  },
  {
    // 12.00 € a year off the sewerage fixed charge: 12 × 4/12 = 4.00
    name: '11. fixed yearly reduction',
    input: {
      ...base,
      consumer: { ...consumer, specialRegulationId: 3 },
      discounts: [discount({ amountType: 1, calculation: 1, amount: '12', charges: ['sewerageFixed'] })],
    },
    lines: [...bill1, ['discount', 'sewerageFixed', null, '-4.00', '24.00']],
    vat: [
      ['24.00', '8.90', '2.14'], // 2.136
      ['13.00', '22.13', '2.88'],
    ],
    total: '36.05',
  },
  {
    // No consumption, no minimum, island rates 9% and 17%: only the fixed charges and the fee
    name: '12. zero consumption at island VAT rates',
    input: {
      ...base,
      consumption: '0',
      invoicePolicy: { resourceTax: '0.035', envTax: '0.05', minConsumption: 0 },
      tariffs: [
        {
          ...household,
          vat: { ...VAT, waterFixed: '9', water: '9', sewerageFixed: '17', sewerage: '17', specialFee: '17' },
        },
      ],
    },
    lines: [
      ['waterFixed', null, null, '6.00', '9.00'],
      ['sewerageFixed', null, null, '3.00', '17.00'],
      ['specialFee', null, null, '1.50', '17.00'],
    ],
    vat: [
      ['17.00', '4.50', '0.77'], // 0.765
      ['9.00', '6.00', '0.54'],
    ],
    total: '11.81',
  },
];

describe('computeBill: hand-computed bills to the cent', () => {
  for (const c of cases) {
    it(c.name, () => {
      const bill = computeBill(c.input);
      const rows = bill.lines.map((l) => [l.charge, l.band ?? l.target, l.quantity, l.amount, l.vatPercent]);
      expect(rows).toEqual(c.lines);
      expect(bill.vat.map((v) => [v.vatPercent, v.net, v.vat])).toEqual(c.vat);
      expect(bill.total).toBe(c.total);
      // The lines, the VAT and the previous balance add up to the total exactly.
      const linesSum = sum(bill.lines.map((l) => l.amount));
      expect(linesSum.plus(bill.vatTotal).toFixed(2)).toBe(bill.total);
    });
  }

  it('rounds VAT by the water bill rule, once per rate (per line the 13% of bill 1 would be 2.87)', () => {
    expect(documentVatRounding.waterBill).toBe('perRate');
    const lines = computeBill(base).lines.map((l) => ({ net: l.amount, vatPercent: l.vatPercent }));
    // 13% per line: 0.78 + 0.78 + 1.04 + 0.11 (0.1144) + 0.16 (0.1625) = 2.87
    const perLine = vatByRate(lines, 'financeDocument').map((r) => [r.vatPercent, r.vat.toFixed(2)]);
    expect(perLine).toEqual([
      ['24.00', '3.10'],
      ['13.00', '2.87'],
    ]);
  });
  it('tells which day has no tariff', () => {
    const input = { ...base, tariffs: [{ ...household, fromdate: '2026-02-01' }] };
    expect(() => computeBill(input)).toThrowError(BillingError);
    try {
      computeBill(input);
    } catch (error) {
      expect((error as BillingError).params).toEqual({ date: '2026-01-01' });
    }
  });

  it('marks the days of each tariff only when the tariff changed', () => {
    expect(computeBill(base).lines.every((l) => l.from === null)).toBe(true);
    const split = cases[6]?.input as BillInput;
    expect(computeBill(split).lines[0]).toMatchObject({ from: '2026-01-01', to: '2026-02-28' });
  });

  it('leaves out a discount policy outside its validity or for another regulation', () => {
    const eligible = { ...base, consumer: { ...consumer, specialRegulationId: 3 } };
    const expired = computeBill({ ...eligible, discounts: [discount({ todate: '2025-12-31' })] });
    expect(expired.lines.some((l) => l.charge === 'discount')).toBe(false);
    const other = computeBill({ ...eligible, discounts: [discount({ specialRegulationIds: [4] })] });
    expect(other.lines.some((l) => l.charge === 'discount')).toBe(false);
  });

  it('counts days with both ends included', () => {
    expect(daysInclusive('2026-01-01', '2026-04-30')).toBe(120);
    expect(daysInclusive('2028-02-01', '2028-02-29')).toBe(29);
  });
});

describe('the social tariffs of the glossary as data', () => {
  const regulation = { POLY: 3, AMEA: 2, NEFRO: 6, MONO: 7, TRITEK: 8 };
  const policies = socialTariffs(regulation, '2026-01-01');
  it('halves the consumption for large families, the disabled, kidney patients and single parents', () => {
    for (const id of [3, 2, 6, 7]) {
      const bill = computeBill({
        ...base,
        consumer: { ...consumer, specialRegulationId: id },
        discounts: policies,
      });
      expect(bill.lines.filter((l) => l.charge === 'discount').map((l) => l.amount)).toEqual(['-7.00']);
    }
  });
  it('takes 25% off for three-child families and never touches the fixed charges', () => {
    const bill = computeBill({
      ...base,
      consumer: { ...consumer, specialRegulationId: 8 },
      discounts: policies,
    });
    expect(bill.lines.filter((l) => l.charge === 'discount').map((l) => [l.target, l.amount])).toEqual([
      ['water', '-3.50'],
    ]);
  });
});
