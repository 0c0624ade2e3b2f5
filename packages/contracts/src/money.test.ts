import { describe, expect, it } from 'vitest';
import {
  amountFromText,
  amountString,
  decimalText,
  documentTotals,
  documentVatRounding,
  formatAmount,
  formatDecimal,
  formatMoney,
  type LineInput,
  moneySchema,
  parseDecimal,
  roundCents,
  spreadsheetNumber,
  type TaxInput,
  trimmedDecimal,
  vatByRate,
  vatOf,
} from './money.ts';

const s = (value: { toFixed(n: number): string }) => value.toFixed(2);

/** Documents computed by hand (lines rounded half-up to the cent, totals their sums). */
const handComputed: {
  name: string;
  lines: LineInput[];
  taxes?: TaxInput[];
  lineNets: string[];
  lineVats: string[];
  net: string;
  vat: string;
  gross: string;
  payable: string;
  taxes_?: string[];
}[] = [
  {
    name: 'one line at 24%',
    lines: [{ quantity: 1, price: '100', vatPercent: 24 }],
    lineNets: ['100.00'],
    lineVats: ['24.00'],
    net: '100.00',
    vat: '24.00',
    gross: '124.00',
    payable: '124.00',
  },
  {
    name: '3 × 19.99 at 24%: VAT 14.3928 rounds down',
    lines: [{ quantity: 3, price: '19.99', vatPercent: 24 }],
    lineNets: ['59.97'],
    lineVats: ['14.39'],
    net: '59.97',
    vat: '14.39',
    gross: '74.36',
    payable: '74.36',
  },
  {
    name: 'a tie rounds half up (0.125 → 0.13, not the banker’s 0.12)',
    lines: [{ quantity: 1, price: '0.125', vatPercent: 24 }],
    lineNets: ['0.13'],
    lineVats: ['0.03'],
    net: '0.13',
    vat: '0.03',
    gross: '0.16',
    payable: '0.16',
  },
  {
    name: '10% discount on 2 × 45.50 at 13%',
    lines: [{ quantity: 2, price: '45.50', discount: 10, vatPercent: 13 }],
    lineNets: ['81.90'],
    lineVats: ['10.65'],
    net: '81.90',
    vat: '10.65',
    gross: '92.55',
    payable: '92.55',
  },
  {
    name: 'three lines of 0.333: totals are sums of rounded lines (1.23, not 1.24)',
    lines: [1, 2, 3].map(() => ({ quantity: 1, price: '0.333', vatPercent: 24 })),
    lineNets: ['0.33', '0.33', '0.33'],
    lineVats: ['0.08', '0.08', '0.08'],
    net: '0.99',
    vat: '0.24',
    gross: '1.23',
    payable: '1.23',
  },
  {
    name: 'services with 20% withholding',
    lines: [{ quantity: 1, price: '500', vatPercent: 24 }],
    taxes: [{ kind: 3, percent: 20 }],
    taxes_: ['100.00'],
    lineNets: ['500.00'],
    lineVats: ['120.00'],
    net: '500.00',
    vat: '120.00',
    gross: '620.00',
    payable: '520.00',
  },
  {
    name: 'VAT-exempt with 3.6% stamp duty and a fixed recycling fee',
    lines: [{ quantity: 1, price: '250', vatPercent: 0 }],
    taxes: [
      { kind: 2, percent: '3.6' },
      { kind: 4, amount: '0.08' },
    ],
    taxes_: ['9.00', '0.08'],
    lineNets: ['250.00'],
    lineVats: ['0.00'],
    net: '250.00',
    vat: '0.00',
    gross: '250.00',
    payable: '259.08',
  },
  {
    name: 'water: 12.345 m³ at 0.4250 and a fixed charge of 4.50, at 13%',
    lines: [
      { quantity: '12.345', price: '0.4250', vatPercent: 13 },
      { quantity: 1, price: '4.5000', vatPercent: 13 },
    ],
    lineNets: ['5.25', '4.50'],
    lineVats: ['0.68', '0.59'],
    net: '9.75',
    vat: '1.27',
    gross: '11.02',
    payable: '11.02',
  },
  {
    name: 'half a unit at 1.01: 0.505 → 0.51',
    lines: [{ quantity: '0.5', price: '1.01', vatPercent: 24 }],
    lineNets: ['0.51'],
    lineVats: ['0.12'],
    net: '0.51',
    vat: '0.12',
    gross: '0.63',
    payable: '0.63',
  },
  {
    name: '33.33% discount on 10.00',
    lines: [{ quantity: 1, price: '10', discount: '33.33', vatPercent: 24 }],
    lineNets: ['6.67'],
    lineVats: ['1.60'],
    net: '6.67',
    vat: '1.60',
    gross: '8.27',
    payable: '8.27',
  },
  {
    name: 'goods with 4% withholding and an interest charge',
    lines: [{ quantity: 10, price: '12.3456', vatPercent: 24 }],
    taxes: [
      { kind: 3, percent: 4 },
      { kind: 6, amount: '1.50' },
    ],
    taxes_: ['4.94', '1.50'],
    lineNets: ['123.46'],
    lineVats: ['29.63'],
    net: '123.46',
    vat: '29.63',
    gross: '153.09',
    payable: '149.65',
  },
];

describe('document arithmetic, against documents computed by hand', () => {
  it.each(handComputed)('$name', (doc) => {
    const totals = documentTotals(doc.lines, doc.taxes);
    expect(totals.lines.map((l) => s(l.net))).toEqual(doc.lineNets);
    expect(totals.lines.map((l) => s(l.vat))).toEqual(doc.lineVats);
    expect(s(totals.net)).toBe(doc.net);
    expect(s(totals.vat)).toBe(doc.vat);
    expect(s(totals.gross)).toBe(doc.gross);
    expect(s(totals.payable)).toBe(doc.payable);
    if (doc.taxes_) expect(totals.taxes.map(s)).toEqual(doc.taxes_);
  });

  it('keeps the discount so that gross − discount = net', () => {
    const totals = documentTotals([{ quantity: 2, price: '45.50', discount: 10, vatPercent: 13 }]);
    expect(s(totals.discount)).toBe('9.10');
  });
});

describe('rounding and the wire form', () => {
  it('rounds half up, away from zero', () => {
    expect(s(roundCents('2.675'))).toBe('2.68');
    expect(s(roundCents('-2.675'))).toBe('-2.68');
    expect(s(roundCents('2.674999'))).toBe('2.67');
    // Binary floats would say 1.0049999…: the decimal does not.
    expect(s(roundCents('1.005'))).toBe('1.01');
  });

  it('accepts amounts as decimal strings of at most two decimals', () => {
    expect(moneySchema.parse('12.3')).toBe('12.30');
    expect(moneySchema.safeParse('12.345').success).toBe(false);
    expect(moneySchema.safeParse('abc').success).toBe(false);
    expect(moneySchema.safeParse('1e5').success).toBe(false);
  });
});

describe('parse and format', () => {
  it('reads Greek and international writing', () => {
    expect(parseDecimal('1.234,56')?.toFixed(2)).toBe('1234.56');
    expect(parseDecimal('1,234.56')?.toFixed(2)).toBe('1234.56');
    expect(parseDecimal('12,5')?.toFixed(2)).toBe('12.50');
    expect(parseDecimal('12.5')?.toFixed(2)).toBe('12.50');
    expect(parseDecimal('1.234.567')?.toFixed(0)).toBe('1234567');
    expect(parseDecimal(' 7 € ')?.toFixed(0)).toBe('7');
    expect(parseDecimal('-3,10')?.toFixed(2)).toBe('-3.10');
    expect(parseDecimal('1.23.4')).toBeNull();
    expect(parseDecimal('abc')).toBeNull();
    expect(parseDecimal('')).toBeNull();
  });

  it('writes Greek and English amounts', () => {
    expect(formatMoney('1234567.5')).toBe('1.234.567,50');
    expect(formatMoney('1234567.5', 'en')).toBe('1,234,567.50');
    expect(formatMoney('-0.5')).toBe('-0,50');
    expect(formatMoney('12.3456', 'el', 4)).toBe('12,3456');
    expect(formatDecimal('2.000')).toBe('2');
    expect(formatDecimal('150.0000', 'el', 2)).toBe('150,00');
    expect(formatDecimal('0.4250', 'en', 2)).toBe('0.425');
  });

  it('writes every kind of amount one way, in the locale (issue 32 item 5)', () => {
    // The settlements list showed 1135.30, the categories 0.00, the bill terms 0.05.
    expect(formatAmount('1135.30', 'money')).toBe('1.135,30');
    expect(formatAmount('1135.3', 'money', 'en')).toBe('1,135.30');
    expect(formatAmount('0.00', 'money')).toBe('0,00');
    expect(formatAmount('0.0500', 'price')).toBe('0,05');
    expect(formatAmount('0.4250', 'price')).toBe('0,425');
    expect(formatAmount('1.23456', 'price')).toBe('1,2346');
    expect(formatAmount('24', 'percent')).toBe('24,00');
    expect(formatAmount('13.5', 'percent', 'en')).toBe('13.50');
    expect(formatAmount('2.000', 'quantity')).toBe('2');
    expect(formatAmount('1234.5', 'quantity')).toBe('1.234,5');
    expect(formatAmount(12.5, 'money')).toBe('12,50');
    expect(formatAmount('-0.005', 'money')).toBe('-0,01');
    // What is not a number is shown as it is; nothing is shown for nothing.
    expect(formatAmount('n/a', 'money')).toBe('n/a');
    expect(formatAmount(null, 'money')).toBe('');
    expect(formatAmount('', 'percent')).toBe('');
  });

  it('reads an amount as a person types it, to the scale of its kind', () => {
    expect(amountFromText('1.135,3', 'money')).toBe('1135.30');
    expect(amountFromText('1,135.30', 'money')).toBe('1135.30');
    expect(amountFromText('0,425', 'price')).toBe('0.4250');
    expect(amountFromText('24', 'percent')).toBe('24.00');
    expect(amountFromText('2,5', 'quantity')).toBe('2.500');
    expect(amountFromText('0,001', 'money')).toBeNull();
    expect(amountFromText('abc', 'money')).toBeNull();
  });
});

describe('VAT rounding, the rule of each kind of document (computed by hand)', () => {
  it('rounds one net amount half up, away from zero', () => {
    expect(vatOf('12.50', '13').toFixed(2)).toBe('1.63'); // 1.625
    expect(vatOf('0.50', '13').toFixed(2)).toBe('0.07'); // 0.065, not the banker's 0.06
    expect(vatOf('-0.50', '13').toFixed(2)).toBe('-0.07'); // −0.065
    expect(vatOf('100.00', '24').toFixed(2)).toBe('24.00');
  });

  const money = (
    rates: { vatPercent: string; net: { toFixed(n: number): string }; vat: { toFixed(n: number): string } }[],
  ) => rates.map((r) => [r.vatPercent, r.net.toFixed(2), r.vat.toFixed(2)]);

  it('finance documents round each line: 0.50 + 0.50 at 13% is 0.07 + 0.07', () => {
    expect(documentVatRounding.financeDocument).toBe('perLine');
    const lines = [
      { net: '0.50', vatPercent: '13' },
      { net: '0.50', vatPercent: '13' },
      { net: '10.00', vatPercent: '24' },
    ];
    // 13%: 0.065 → 0.07 twice = 0.14; 24%: 2.40. Highest rate first.
    expect(money(vatByRate(lines, 'financeDocument'))).toEqual([
      ['24.00', '10.00', '2.40'],
      ['13.00', '1.00', '0.14'],
    ]);
  });

  it('water bills round once per rate: 0.50 + 0.50 at 13% is 1.00 × 13% = 0.13', () => {
    expect(documentVatRounding.waterBill).toBe('perRate');
    const lines = [
      { net: '0.50', vatPercent: '13.00' },
      { net: '0.50', vatPercent: '13.00' },
      { net: '10.00', vatPercent: '24.00' },
    ];
    expect(money(vatByRate(lines, 'waterBill'))).toEqual([
      ['24.00', '10.00', '2.40'],
      ['13.00', '1.00', '0.13'],
    ]);
  });

  it('a tie on the rate sum rounds half up too: 0.25 + 0.25 at 13% is 0.065 → 0.07 per rate, 0.03 + 0.03 per line', () => {
    const lines = [
      { net: '0.25', vatPercent: '13' },
      { net: '0.25', vatPercent: '13' },
    ];
    expect(money(vatByRate(lines, 'waterBill'))).toEqual([['13.00', '0.50', '0.07']]);
    expect(money(vatByRate(lines, 'financeDocument'))).toEqual([['13.00', '0.50', '0.06']]); // 0.0325 → 0.03
  });

  it('a discount line nets into its rate before the rate is rounded (bills)', () => {
    // 12.80 − 0.30 = 12.50 at 13% = 1.625 → 1.63; per line it would be 1.66 − 0.04 = 1.62.
    const lines = [
      { net: '12.80', vatPercent: '13.00' },
      { net: '-0.30', vatPercent: '13.00' },
    ];
    expect(money(vatByRate(lines, 'waterBill'))).toEqual([['13.00', '12.50', '1.63']]);
    expect(money(vatByRate(lines, 'financeDocument'))).toEqual([['13.00', '12.50', '1.62']]);
  });

  it('document totals take the finance rule', () => {
    const totals = documentTotals([
      { quantity: '1', price: '0.50', vatPercent: '13' },
      { quantity: '1', price: '0.50', vatPercent: '13' },
    ]);
    expect(totals.vat.toFixed(2)).toBe('0.14');
  });
});

describe('stored values read as decimals, and their wire form per kind', () => {
  it('reads decimal strings, numbers and bigints, never exponent forms', () => {
    expect(decimalText('+12')).toBe('12');
    expect(decimalText('.5')).toBe('0.5');
    expect(decimalText(' 007.50 ')).toBe('7.50');
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(12n)).toBe('12');
    expect(decimalText('12,50')).toBeNull();
    expect(decimalText(Number.NaN)).toBeNull();
  });
  it('writes each kind to its scale, half up', () => {
    expect(amountString('1.005')).toBe('1.01');
    expect(amountString('-0.001')).toBe('0.00');
    expect(amountString('0.01255', 'price')).toBe('0.0126');
    expect(amountString('2.0005', 'quantity')).toBe('2.001');
    expect(amountString('24', 'percent')).toBe('24.00');
  });
  it('gives a spreadsheet the double of the rounded decimal', () => {
    expect(spreadsheetNumber('1.005', 'money')).toBe(1.01);
    expect(spreadsheetNumber('0.0125', 'price')).toBe(0.0125);
    expect(spreadsheetNumber('-2.71', 'number')).toBe(-2.71);
    expect(spreadsheetNumber('abc', 'money')).toBeNull();
  });
});

describe('stored rates as typed', () => {
  it('drops trailing zeros in decimal, not through a float', () => {
    expect(trimmedDecimal('0.0500')).toBe('0.05');
    expect(trimmedDecimal('24.00')).toBe('24');
    expect(trimmedDecimal('13.50')).toBe('13.5');
  });
});
