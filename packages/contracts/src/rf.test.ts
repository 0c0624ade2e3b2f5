import { describe, expect, it } from 'vitest';
import { billRfCode, debtRfReference, formatRf, isValidRf, rfCode } from './rf.ts';

describe('RF payment codes (ISO 11649)', () => {
  it('computes the check digits of the standard examples', () => {
    expect(rfCode('539007547034')).toBe('RF18539007547034');
    expect(rfCode('000000000539007547034')).toBe('RF18000000000539007547034');
    expect(rfCode('2348231')).toBe('RF712348231');
  });
  it('validates printed codes and rejects a mistyped one', () => {
    expect(isValidRf('RF18 5390 0754 7034')).toBe(true);
    expect(isValidRf('RF18 5390 0754 7043')).toBe(false);
    expect(isValidRf('RF19539007547034')).toBe(false);
    expect(isValidRf('RF18')).toBe(false);
    expect(formatRf('RF18539007547034')).toBe('RF18 5390 0754 7034');
  });
  it('gives every bill its own valid code', () => {
    const codes = new Set<string>();
    for (const company of [1, 2, 999]) {
      for (const bill of [1, 2, 10, 11, 123456, 999_999_999_999]) {
        const code = billRfCode(company, bill);
        expect(isValidRf(code)).toBe(true);
        expect(code.length).toBeLessThanOrEqual(25);
        codes.add(code);
      }
    }
    expect(codes.size).toBe(18);
  });
});

describe('RF references of debts', () => {
  it('are valid RF codes that never equal a bill reference (17 digits against 16)', () => {
    const reference = debtRfReference(1, 42);
    expect(reference).toHaveLength(17);
    expect(reference.startsWith('0011')).toBe(true);
    expect(isValidRf(rfCode(reference))).toBe(true);
  });
});
