import { describe, expect, it } from 'vitest';
import {
  codeKey,
  cutPart,
  type EncodingCodeDefinition,
  encodingCodeDefinitionSchema,
  encodingMask,
  isCodeComplete,
  nextLastPart,
  padPart,
  previewCode,
  splitCode,
  wantsRecommendedLastPart,
  writtenCode,
} from './encoding-code.ts';
import { meterConsumption, swapConsumption } from './water-meters.ts';

const none = { level4: null, level5: null, leveltable4: null, leveltable5: null };
const noFields = { cfieldid1: null, cfieldid2: null, cfieldid3: null, cfieldid4: null, cfieldid5: null };
/** Sector (2), route (3), number (4), joined by '-'. */
const three: EncodingCodeDefinition = {
  levels: 3,
  level1: 2,
  level2: 3,
  level3: 4,
  leveltable1: 1,
  leveltable2: 2,
  leveltable3: null,
  ...none,
  ...noFields,
  separator: '-',
};
const five: EncodingCodeDefinition = {
  levels: 5,
  level1: 1,
  level2: 2,
  level3: 1,
  level4: 2,
  level5: 3,
  leveltable1: 1,
  leveltable2: 2,
  leveltable3: 3,
  leveltable4: 4,
  leveltable5: null,
  ...noFields,
  separator: '',
};

describe('encoding code rules (spec §4, §5)', () => {
  it('cuts a part to its level length, the last one to digits only', () => {
    expect(cutPart('ABCDE', 3, false)).toBe('ABC');
    expect(cutPart('A1-2', 4, false)).toBe('A1-2');
    expect(cutPart('1a2b345', 4, true)).toBe('1234');
    expect(cutPart('abc', 4, true)).toBe('');
    expect(cutPart('0070', 4, true)).toBe('70');
    expect(cutPart('0', 4, true)).toBe('0');
  });

  it('pads on the left with spaces, and the mask is X per level length joined by the separator', () => {
    expect(padPart('7', 4)).toBe('   7');
    expect(padPart('1234', 4)).toBe('1234');
    expect(encodingMask(three)).toBe('XX-XXX-XXXX');
    expect(encodingMask(five)).toBe('XXXXXXXXX');
  });

  it('previews the parts cut, padded and joined', () => {
    expect(previewCode(three, ['1', '12', '7'])).toBe(' 1- 12-   7');
    expect(previewCode(three, ['123', 'ABCD', '12x345'])).toBe('12-ABC-1234');
    expect(previewCode(three, ['1'])).toBe(' 1-   -    ');
    expect(previewCode(five, ['A', 'B', 'C', 'D', '9'])).toBe('A BC D  9');
  });

  it('is complete only when every level has a value, and asks for the last part at the right moment', () => {
    expect(isCodeComplete(three, ['1', '12', '7'])).toBe(true);
    expect(isCodeComplete(three, ['1', '  ', '7'])).toBe(false);
    expect(isCodeComplete(three, ['1', '12', 'x'])).toBe(false);
    expect(wantsRecommendedLastPart(three, ['1', '12', ''])).toBe(true);
    expect(wantsRecommendedLastPart(three, ['1', '', ''])).toBe(false);
    expect(wantsRecommendedLastPart(three, ['1', '12', '3'])).toBe(false);
    expect(isCodeComplete(five, ['A', 'B', 'C', 'D', '1'])).toBe(true);
    expect(isCodeComplete(five, ['A', 'B', 'C', '', '1'])).toBe(false);
  });

  it('splits a stored code back into its parts, refusing what does not fit', () => {
    expect(splitCode(three, ' 1- 12-   7')).toEqual(['1', '12', '7']);
    expect(splitCode(five, 'A BC D  9')).toEqual(['A', 'B', 'C', 'D', '9']);
    expect(splitCode(three, '1-12-7')).toBeNull();
    expect(splitCode(three, ' 1- 12-   x')).toBeNull();
    expect(splitCode(three, ' 1-   -   7')).toBeNull();
    expect(splitCode(three, ' 1- 12-   7-1')).toBeNull();
    expect(splitCode(five, 'A BC D  9 ')).toBeNull();
  });

  it('recommends the next free last part', () => {
    expect(nextLastPart(4, [])).toBe('1');
    expect(nextLastPart(4, ['   7', '  12', '3'])).toBe('13');
    expect(nextLastPart(2, ['99'])).toBeNull();
  });

  it('accepts at most five levels, each with a length and a type, a custom field level with its field', () => {
    expect(encodingCodeDefinitionSchema.safeParse(three).success).toBe(true);
    expect(encodingCodeDefinitionSchema.safeParse({ ...three, levels: 6 }).success).toBe(false);
    const missing = encodingCodeDefinitionSchema.safeParse({ ...three, level2: null, leveltable2: 7 });
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toEqual(['level2', 'cfieldid2']);
    expect(encodingCodeDefinitionSchema.safeParse({ ...three, leveltable1: null }).success).toBe(false);
    expect(encodingCodeDefinitionSchema.safeParse({ ...three, leveltable1: 8 }).success).toBe(false);
    expect(encodingCodeDefinitionSchema.safeParse({ ...three, separator: '1' }).success).toBe(false);
  });

  it('issue 29 item 1: a levels of 2^31 is refused before the refinement loops over the levels', () => {
    // The refinement adds an issue per level without a length: before the fix it looped `levels`
    // times (2^31 from one request held the server for an hour); 200,000 shows it without the hour.
    for (const levels of [200_000, 2 ** 31, -(2 ** 31)]) {
      const started = performance.now();
      const result = encodingCodeDefinitionSchema.safeParse({ ...three, levels });
      expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['levels']);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});

describe('meter consumption and the swap arithmetic', () => {
  it('is current − previous, never negative, recognising a rollover by the digits', () => {
    expect(meterConsumption(100, 130)).toBe(30);
    expect(meterConsumption(130, 100)).toBeNull();
    expect(meterConsumption(99990, 20, 5)).toBe(30);
    expect(meterConsumption(500, 100, 5)).toBeNull();
    expect(meterConsumption(130, 100, null, -1)).toBe(30);
  });

  it('adds the old meter up to its final reading and the new one from its initial reading', () => {
    expect(swapConsumption({ oldPrevious: 1200, oldFinal: 1250, newInitial: 0, newCurrent: 18 })).toBe(68);
    expect(swapConsumption({ oldPrevious: 1200, oldFinal: 1200, newInitial: 5, newCurrent: 5 })).toBe(0);
    expect(swapConsumption({ oldPrevious: 1200, oldFinal: 1100, newInitial: 0, newCurrent: 18 })).toBeNull();
    expect(swapConsumption({ oldPrevious: 10, oldFinal: 20, newInitial: 7, newCurrent: 3 })).toBeNull();
    expect(
      swapConsumption({ oldPrevious: 9995, oldFinal: 3, oldDigits: 4, newInitial: 0, newCurrent: 4 }),
    ).toBe(12);
  });

  it('writes a stored code as people do, and knows it however it is typed (issue 32 item 4)', () => {
    expect(writtenCode('01-001-  101')).toBe('01-001-101');
    expect(writtenCode('  7')).toBe('7');
    for (const typed of ['01-001-101', '01001101', ' 01-001-  101 ', '01 001 101', '01.001.101'])
      expect(codeKey(typed)).toBe(codeKey('01-001-  101'));
    expect(codeKey('01-001-102')).not.toBe(codeKey('01-001-101'));
    expect(codeKey('Α1-b2')).toBe('α1b2');
  });
});
