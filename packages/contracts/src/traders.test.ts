import { describe, expect, it } from 'vitest';
import { issueToFieldError } from './errors.ts';
import { isIsoDate } from './time.ts';
import {
  isValidIban,
  isValidVatNumber,
  mergeTradersSchema,
  normalizeVatNumber,
  saveTraderSchema,
  traderListItemSchema,
  tradersCatalog,
} from './traders.ts';

describe('ΑΦΜ (Greek VAT number) check digit', () => {
  it('accepts public valid numbers', () => {
    // 094014201: 0·256+9·128+4·64+0·32+1·16+4·8+2·4+0·2 = 1464; 1464 mod 11 = 1; mod 10 = 1 = last digit.
    // 123456783: 256+256+192+128+80+48+28+16 = 1004; 1004 mod 11 = 3 = last digit.
    for (const afm of ['094014201', '094019245', '090000045', '094422282', '123456783']) {
      expect(isValidVatNumber(afm), afm).toBe(true);
    }
  });

  it('strips an EL/GR prefix and separators, pads an old 8-digit number', () => {
    expect(normalizeVatNumber('EL094014201')).toBe('094014201');
    expect(normalizeVatNumber('gr 094 014 201')).toBe('094014201');
    expect(normalizeVatNumber('94014201')).toBe('094014201');
    expect(isValidVatNumber('EL094014201')).toBe(true);
    expect(isValidVatNumber('94014201')).toBe(true);
  });

  it('refuses a changed digit, all zeros, wrong lengths and letters', () => {
    for (const afm of [
      '094014202',
      '094014211',
      '000000000',
      '00000000',
      '1234567',
      '0940142010',
      '09401420A',
      '',
    ]) {
      expect(isValidVatNumber(afm), afm).toBe(false);
    }
  });

  it('a remainder of 10 gives check digit 0', () => {
    // A number whose weighted sum is 10 mod 11 (e.g. 000000210: 2·4 + 1·2 = 10) ends in 0.
    const withTen = Array.from({ length: 1000 }, (_, n) => `000000${String(n).padStart(3, '0')}`).find(
      (v) => (Number(v[6]) * 4 + Number(v[7]) * 2) % 11 === 10 && v[8] === '0',
    );
    expect(withTen).toBeDefined();
    expect(isValidVatNumber(withTen as string)).toBe(true);
  });
});

describe('IBAN (ISO 13616 mod 97)', () => {
  it('accepts the standard examples, with spaces and lower case', () => {
    expect(isValidIban('GR1601101250000000012300695')).toBe(true);
    expect(isValidIban('GR16 0110 1250 0000 0001 2300 695')).toBe(true);
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('gb82west12345698765432')).toBe(true);
  });

  it('refuses a changed digit, wrong check digits and wrong lengths', () => {
    expect(isValidIban('GR1601101250000000012300696')).toBe(false);
    expect(isValidIban('GR1701101250000000012300695')).toBe(false);
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('GR160110125000000001230069')).toBe(false);
    expect(isValidIban('GR16011012500000000123006951')).toBe(false);
    expect(isValidIban('')).toBe(false);
  });
});

describe('dates YYYY-MM-DD', () => {
  it('accepts real dates only', () => {
    expect(isIsoDate('1980-02-29')).toBe(true);
    expect(isIsoDate('1981-02-29')).toBe(false);
    expect(isIsoDate('29/02/1980')).toBe(false);
    expect(isIsoDate('1980-13-01')).toBe(false);
  });
});

describe('the trader schema', () => {
  const base = { individual: true, lastname: 'Παπαδόπουλος', firstname: 'Γιώργος' };

  it('derives fullname, normalises ΑΦΜ and IBAN, defaults country GR', () => {
    const trader = saveTraderSchema.parse({
      ...base,
      vatnumber: 'EL 094014201',
      traderbanks: [{ id: null, iban: 'gr16 0110 1250 0000 0001 2300 695', bic: 'ethngraa', bankId: null }],
    });
    expect(trader).toMatchObject({
      fullname: 'Παπαδόπουλος Γιώργος',
      vatnumber: '094014201',
      country: 'GR',
      status: 1,
      active: true,
      traderbanks: [{ iban: 'GR1601101250000000012300695', bic: 'ETHNGRAA' }],
    });
    const company = saveTraderSchema.parse({ individual: false, fullname: 'ΔΕΥΑ Λάρισας', lastname: 'x' });
    expect(company.fullname).toBe('ΔΕΥΑ Λάρισας');
  });

  it('an empty IBAN is a missing one, not an invalid one', () => {
    const result = saveTraderSchema.safeParse({
      individual: false,
      fullname: 'Δοκιμή ΑΕ',
      traderbanks: [{ id: null, iban: '  ', bic: null, bankId: null }],
    });
    expect(result.error?.issues.map(issueToFieldError)).toEqual([
      { field: 'traderbanks.0.iban', key: 'validation.required', params: {} },
    ]);
  });

  it('gives catalog keys for bad ΑΦΜ, IBAN, BIC, e-mail, date and missing names', () => {
    const result = saveTraderSchema.safeParse({
      individual: true,
      vatnumber: '094014202',
      email: 'not-an-email',
      birthday: '1980-02-30',
      traderbanks: [{ id: null, iban: 'GR1601101250000000012300696', bic: 'ETHN1RAA', bankId: null }],
    });
    expect(result.success).toBe(false);
    const errors = result.error?.issues.map(issueToFieldError) ?? [];
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'vatnumber', key: 'validation.vatnumber', params: {} },
        { field: 'email', key: 'validation.email', params: {} },
        { field: 'birthday', key: 'validation.date', params: {} },
        { field: 'traderbanks.0.iban', key: 'validation.iban', params: {} },
        { field: 'traderbanks.0.bic', key: 'validation.bic', params: {} },
      ]),
    );
    const names = saveTraderSchema.safeParse({ individual: false });
    expect(names.error?.issues.map(issueToFieldError)).toEqual([
      { field: 'fullname', key: 'validation.required', params: {} },
    ]);
  });

  it('merge: two different traders, only the chosen values', () => {
    expect(mergeTradersSchema.safeParse({ survivorId: 1, mergedId: 1, values: {} }).success).toBe(false);
    expect(
      mergeTradersSchema.parse({ survivorId: 1, mergedId: 2, values: { email: 'a@b.gr' } }).values,
    ).toEqual({
      email: 'a@b.gr',
    });
  });
});

describe('the traders list', () => {
  it('a row has exactly the columns of the catalog', () => {
    expect(Object.keys(traderListItemSchema.shape).sort()).toEqual(
      tradersCatalog.fields.map((field) => field.id).sort(),
    );
  });
});
