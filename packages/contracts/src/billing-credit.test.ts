import { describe, expect, it } from 'vitest';
import { creditBillSchema, creditLinesOf, creditVatOf } from './billing.ts';
import { Decimal } from './money.ts';

/** A credit of a bill (kind 4): its own lines negated to the cent; the carried balance left out. */
describe('creditLinesOf', () => {
  // A household bill by hand: 25 m³ in two bands, fixed charge, sewerage 80% of water, the social
  // discount, an extra charge and a carried unpaid bill of 31.40 €.
  const lines = [
    { charge: 'waterFixed', quantity: null, price: null, amount: '4.00', vatPercent: '13.00' },
    { charge: 'water', quantity: '20.000', price: '0.4500', amount: '9.00', vatPercent: '13.00' },
    { charge: 'water', quantity: '5.000', price: '0.8300', amount: '4.15', vatPercent: '13.00' },
    { charge: 'sewerage', quantity: null, price: '80.0000', amount: '10.52', vatPercent: '13.00' },
    { charge: 'discount', quantity: null, price: '50.0000', amount: '-6.58', vatPercent: '13.00' },
    { charge: 'extra', quantity: null, price: null, amount: '35.00', vatPercent: '24.00' },
    { charge: 'previousBalance', quantity: null, price: null, amount: '31.40', vatPercent: '0.00' },
  ];

  it('negates every line but the previous balance, quantities too, to the cent', () => {
    expect(creditLinesOf(lines).map((l) => [l.charge, l.quantity, l.amount])).toEqual([
      ['waterFixed', null, '-4.00'],
      ['water', '-20.000', '-9.00'],
      ['water', '-5.000', '-4.15'],
      ['sewerage', null, '-10.52'],
      ['discount', null, '6.58'],
      ['extra', null, '-35.00'],
    ]);
  });

  it('adds up to the bill’s own charges negated: 13% on 21.09 and 24% on 35.00', () => {
    const credit = creditLinesOf(lines);
    const net = credit.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
    // 4.00 + 9.00 + 4.15 + 10.52 − 6.58 + 35.00 = 56.09
    expect(net.toFixed(2)).toBe('-56.09');
    // VAT as the bill printed it: 21.09 × 13% = 2.7417 → 2.74; 35.00 × 24% = 8.40.
    const vat = creditVatOf([
      { vatPercent: '13.00', net: '21.09', vat: '2.74' },
      { vatPercent: '24.00', net: '35.00', vat: '8.40' },
    ]);
    expect(vat).toEqual([
      { vatPercent: '13.00', net: '-21.09', vat: '-2.74' },
      { vatPercent: '24.00', net: '-35.00', vat: '-8.40' },
    ]);
    const total = vat.reduce((sum, v) => sum.plus(v.net).plus(v.vat), new Decimal(0));
    // 56.09 + 2.74 + 8.40 = 67.23: the bill's current charges, never its carried 31.40.
    expect(total.toFixed(2)).toBe('-67.23');
  });

  it('wants a reason', () => {
    expect(creditBillSchema.safeParse({ reason: '  ' }).success).toBe(false);
    expect(creditBillSchema.safeParse({ reason: 'Λάθος ένδειξη' }).success).toBe(true);
    expect(creditBillSchema.safeParse({ reason: 'x'.repeat(501) }).success).toBe(false);
  });
});
