import { afterEach, describe, expect, it, vi } from 'vitest';
import { isIsoDate, isoDaySchema, utilityDay, utilityTime, utilityToday, utilityYear } from './time.ts';

describe('the utility calendar (Europe/Athens)', () => {
  it('gives the Athens day and time of an instant, whatever the process zone', () => {
    // 22:30 UTC in winter is 00:30 the next day in Athens (UTC+2).
    const winter = new Date('2026-12-31T22:30:05Z');
    expect(utilityDay(winter)).toBe('2027-01-01');
    expect(utilityTime(winter)).toBe('0:30:05');
    // In summer Athens is UTC+3.
    const summer = new Date('2026-07-15T09:04:00Z');
    expect(utilityDay(summer)).toBe('2026-07-15');
    expect(utilityTime(summer)).toBe('12:04:00');
  });

  it('follows the daylight-saving changes (last Sunday of March and of October)', () => {
    expect(utilityTime(new Date('2026-03-29T00:59:59Z'))).toBe('2:59:59');
    expect(utilityTime(new Date('2026-03-29T01:00:00Z'))).toBe('4:00:00');
    expect(utilityTime(new Date('2026-10-25T00:59:59Z'))).toBe('3:59:59');
    expect(utilityTime(new Date('2026-10-25T01:00:00Z'))).toBe('3:00:00');
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('issue 29 item 16: at 2026-12-31T23:30Z today and the year are already 2027-01-01 and 2027 (Athens)', () => {
    vi.useFakeTimers({ now: new Date('2026-12-31T23:30:00Z') });
    expect(new Date().toISOString().slice(0, 10)).toBe('2026-12-31');
    expect(utilityToday()).toBe('2027-01-01');
    expect(utilityYear()).toBe(2027);
    expect(utilityYear(new Date('2026-12-31T21:59:59Z'))).toBe(2026);
  });
});

describe('the calendar day of a request', () => {
  it('issue 29 item 9: refuses impossible calendar dates (30 February, month 13, year 0), accepts 29 February of a leap year', () => {
    const day = isoDaySchema();
    for (const impossible of [
      '2026-02-30',
      '2026-13-45',
      '2025-02-29',
      '1900-02-29',
      '0000-01-01',
      '2026-1-5',
      '',
    ]) {
      expect(isIsoDate(impossible), impossible).toBe(false);
      const result = day.safeParse(impossible);
      expect(
        result.error?.issues.map((i) => i.message),
        impossible,
      ).toEqual(['validation.date']);
    }
    for (const real of ['2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01'])
      expect(day.safeParse(real).success, real).toBe(true);
    expect(isoDaySchema('validation.day').safeParse('2026-02-30').error?.issues[0]?.message).toBe(
      'validation.day',
    );
  });
});
