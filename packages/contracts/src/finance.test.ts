import { describe, expect, it } from 'vitest';
import {
  accountMaskError,
  accountParents,
  codeFitsMask,
  codeLevel,
  ean13CheckDigit,
  isValidCpvFormat,
  isValidEan13,
  itemRowSchema,
  maskLevels,
  parentCode,
} from './finance.ts';

describe('account mask (spec §5: at most 30 characters)', () => {
  it('accepts levels of X joined by separators', () => {
    expect(accountMaskError('XX.XX.XX.XXXX')).toBeNull();
    expect(accountMaskError('XXX-XX/XXXX')).toBeNull();
    expect(accountMaskError('X'.repeat(30))).toBeNull();
  });
  it('refuses a mask over 30 characters, empty levels and other characters', () => {
    expect(accountMaskError('X'.repeat(31))).toBe('validation.mask_too_long');
    expect(accountMaskError('XX..XX')).toBe('validation.mask_invalid');
    expect(accountMaskError('.XX')).toBe('validation.mask_invalid');
    expect(accountMaskError('XX.')).toBe('validation.mask_invalid');
    expect(accountMaskError('XX.99')).toBe('validation.mask_invalid');
    expect(accountMaskError('')).toBe('validation.required');
  });
  it('knows the code lengths of its levels', () => {
    expect(maskLevels('XX.XX.XXX')).toEqual([2, 5, 9]);
  });
  it('fits codes cut at a level', () => {
    const mask = 'XX.XX.XX.XXXX';
    expect(codeFitsMask('61', mask)).toBe(true);
    expect(codeFitsMask('61.00', mask)).toBe(true);
    expect(codeFitsMask('61.00.01.0001', mask)).toBe(true);
    expect(codeFitsMask('61.0', mask)).toBe(false);
    expect(codeFitsMask('61-00', mask)).toBe(false);
    expect(codeFitsMask('61.00.01.00011', mask)).toBe(false);
    expect(codeLevel('61.00.01', mask)).toBe(3);
  });
});

describe('account hierarchy by code prefixes', () => {
  const mask = 'XX.XX.XXX';
  it('gives the code one level up', () => {
    expect(parentCode('61.00.001', mask)).toBe('61.00');
    expect(parentCode('61.00', mask)).toBe('61');
    expect(parentCode('61', mask)).toBeNull();
  });
  it('hangs each account under its nearest existing ancestor', () => {
    const parents = accountParents(['70', '70.00', '70.00.001', '70.00.002', '71.01.001', '71'], mask);
    expect(Object.fromEntries(parents)).toEqual({
      '70': null,
      '70.00': '70',
      '70.00.001': '70.00',
      '70.00.002': '70.00',
      '71.01.001': '71',
      '71': null,
    });
  });
});

describe('EAN-13 check digit (GS1 weights 1,3,1,3…)', () => {
  // Public examples: Wikipedia's EAN-13 article, GS1's check digit example, an ISBN-13, a UPC-A as EAN-13.
  it.each(['4006381333931', '5901234123457', '9780306406157', '0036000291452'])('%s is valid', (code) => {
    expect(isValidEan13(code)).toBe(true);
    expect(ean13CheckDigit(code.slice(0, 12))).toBe(Number(code[12]));
  });
  it.each(['4006381333932', '590123412345', '59012341234570', '590123412345X'])('%s is not', (code) => {
    expect(isValidEan13(code)).toBe(false);
  });
});

describe('CPV code format NNNNNNNN-N', () => {
  it('accepts eight digits, a dash and a check digit', () => {
    expect(isValidCpvFormat('65100000-4')).toBe(true);
    expect(isValidCpvFormat('44161000-6')).toBe(true);
  });
  it('refuses anything else', () => {
    for (const code of ['65100000', '6510000-4', '65100000-44', '65100000_4', 'ABCDEFGH-1']) {
      expect(isValidCpvFormat(code)).toBe(false);
    }
  });
  it('is what an item row is checked by, with the barcode', () => {
    const row = {
      id: null,
      code: 'P1',
      descr: 'Σωλήνας',
      purchasePrice: '1',
      salePrice: '2',
      vatPercent: '24',
      accountId: null,
      warehouseId: null,
      active: true,
    };
    expect(itemRowSchema.safeParse({ ...row, barcode: '5901234123457', cpv: '44161000-6' }).success).toBe(
      true,
    );
    const bad = itemRowSchema.safeParse({ ...row, barcode: '5901234123458', cpv: '44161000' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['barcode', 'validation.ean13'],
      ['cpv', 'validation.cpv'],
    ]);
  });
});
