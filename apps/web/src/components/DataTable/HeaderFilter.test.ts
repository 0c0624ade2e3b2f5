import { describe, expect, it } from 'vitest';
import { rangeBound } from './HeaderFilter.tsx';

describe('a range filter bound', () => {
  it('reads amounts in Greek and international writing into plain decimals', () => {
    expect(rangeBound('1.234,50', false)).toBe('1234.5');
    expect(rangeBound('1,234.50', false)).toBe('1234.5');
    expect(rangeBound(' 12,5 ', false)).toBe('12.5');
    expect(rangeBound('-3', false)).toBe('-3');
  });
  it('is empty when nothing is typed and unreadable when it is no number', () => {
    expect(rangeBound('  ', false)).toBe('');
    expect(rangeBound('12a', false)).toBeNull();
    expect(rangeBound('1.2.3', false)).toBeNull();
  });
});
