import { type BankLayout, defaultBankLayouts, rfCode } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { bankAmount, bankDate, bankFileText, parseBankFile } from './bank.parse.ts';

/** Reading bank files by their layouts: CSV columns, fixed-width positions, amounts and dates. */

const [csvLayout, fixedLayout] = defaultBankLayouts as [BankLayout, BankLayout];
const rf = rfCode('0011000000000427');

/** A fixed-width record of the default layout: type 2, reference 20, date 8, RF 25, cents 15, payer 40. */
const record = (reference: string, date: string, code: string, cents: string, payer: string) =>
  `2${reference.padEnd(20)}${date}${code.padEnd(25)}${cents.padStart(15, '0')}${payer.padEnd(40)}`;

describe('amounts', () => {
  it('reads a decimal comma with thousands, a decimal point, and cents', () => {
    const comma = { amountInCents: false, decimalComma: true };
    const point = { amountInCents: false, decimalComma: false };
    const cents = { amountInCents: true, decimalComma: false };
    expect(bankAmount('1.234,56', comma)).toBe('1234.56');
    expect(bankAmount('48,7', comma)).toBe('48.70');
    expect(bankAmount('12', comma)).toBe('12.00');
    expect(bankAmount('1,234.56', point)).toBe('1234.56');
    expect(bankAmount('48.07 €', point)).toBe('48.07');
    expect(bankAmount('000000000004807', cents)).toBe('48.07');
    expect(bankAmount('1', cents)).toBe('0.01');
  });

  it('refuses what is not an amount, zero and a mark of the other convention', () => {
    const comma = { amountInCents: false, decimalComma: true };
    expect(bankAmount('12.5', comma)).toBeNull();
    expect(bankAmount('0,00', comma)).toBeNull();
    expect(bankAmount('-5,00', comma)).toBeNull();
    expect(bankAmount('abc', comma)).toBeNull();
    expect(bankAmount('48,07', { amountInCents: true, decimalComma: false })).toBeNull();
    expect(bankAmount('1,234,56', { amountInCents: false, decimalComma: false })).toBeNull();
  });
});

describe('dates', () => {
  it('reads each pattern and refuses days that do not exist', () => {
    expect(bankDate('20261127', 'YYYYMMDD')).toBe('2026-11-27');
    expect(bankDate('27112026', 'DDMMYYYY')).toBe('2026-11-27');
    expect(bankDate('7/1/2026', 'DD/MM/YYYY')).toBe('2026-01-07');
    expect(bankDate('27.11.2026', 'DD.MM.YYYY')).toBe('2026-11-27');
    expect(bankDate('2026-11-27', 'YYYY-MM-DD')).toBe('2026-11-27');
    expect(bankDate('20260230', 'YYYYMMDD')).toBeNull();
    expect(bankDate('2026-11-27', 'DD/MM/YYYY')).toBeNull();
  });
});

describe('a CSV file', () => {
  it('skips the header, reads the columns with a decimal comma and reports what is malformed', () => {
    const text = [
      'Αναφορά;Ημερομηνία;RF;Ποσό;Πληρωτής',
      `TRX-1;27/11/2026;${rf.slice(0, 4)} ${rf.slice(4)};1.048,07;"Παπαδοπούλου; Σοφία"`,
      'TRX-2;27/11/2026;RF00 123;10,00;Χ',
      'TRX-3;31/11/2026;RF18539007547034;10,00;Χ',
      ';27/11/2026;RF18539007547034;10,00;Χ',
      'TRX-5;27/11/2026;;10,00;Χ',
      'TRX-6;27/11/2026',
      '',
    ].join('\r\n');
    const lines = parseBankFile(text, csvLayout);
    expect(lines.map((l) => [l.lineNo, l.reference, l.problem])).toEqual([
      [2, 'TRX-1', null],
      [3, 'TRX-2', 'badRf'],
      [4, 'TRX-3', 'badDate'],
      [5, null, 'noReference'],
      [6, 'TRX-5', 'noRf'],
      [7, 'TRX-6', 'short'],
    ]);
    expect(lines[0]).toMatchObject({
      rfCode: rf,
      amount: '1048.07',
      date: '2026-11-27',
      payer: 'Παπαδοπούλου; Σοφία',
    });
  });
});

describe('a fixed-width file', () => {
  it('reads only the payment records by position, the amount in cents', () => {
    const text = [
      '1HEADER ΤΡΑΠΕΖΑ 20261127',
      record('0000000000000000A001', '20261127', rf, '4807', 'ΠΑΠΑΔΟΠΟΥΛΟΥ ΣΟΦΙΑ'),
      record('0000000000000000A002', '20261127', 'RF99NOTKNOWN', '12', 'ΝΙΚΟΛΑΟΥ'),
      record('0000000000000000A003', '2026112X', rf, '100', ''),
      '2SHORT',
      '9TRAILER 000003',
    ].join('\n');
    const lines = parseBankFile(text, fixedLayout);
    expect(lines.map((l) => [l.lineNo, l.reference, l.rfCode, l.amount, l.date, l.payer, l.problem])).toEqual(
      [
        [2, '0000000000000000A001', rf, '48.07', '2026-11-27', 'ΠΑΠΑΔΟΠΟΥΛΟΥ ΣΟΦΙΑ', null],
        [3, '0000000000000000A002', 'RF99NOTKNOWN', '0.12', '2026-11-27', 'ΝΙΚΟΛΑΟΥ', 'badRf'],
        [4, '0000000000000000A003', rf, '1.00', null, null, 'badDate'],
        [5, 'SHORT', null, null, null, null, 'short'],
      ],
    );
  });

  it('reads a file in the Greek code page (windows-1253) as well as UTF-8', () => {
    const greek = Buffer.from([0xd3, 0xcf, 0xd6, 0xc9, 0xc1]); // ΣΟΦΙΑ in windows-1253
    expect(bankFileText(greek)).toBe('ΣΟΦΙΑ');
    expect(bankFileText(Buffer.from('\uFEFFΣΟΦΙΑ', 'utf8'))).toBe('ΣΟΦΙΑ');
  });
});
