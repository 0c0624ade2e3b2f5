import { describe, expect, it } from 'vitest';
import {
  consumptionFlags,
  correctedConsumption,
  defaultThresholds,
  estimateConsumption,
  estimatedReading,
  monthsInForce,
  periodDates,
  periodName,
  periodNameIn,
  readingConsumption,
  seasonalAverage,
} from './readouts.ts';

describe('readingConsumption', () => {
  const meter = { digits: 5, direction: 1 as const, previous: 1200 };
  it('is the plain difference of a higher reading', () => {
    expect(readingConsumption(meter, 1234)).toEqual({ value: 34, basis: 'normal' });
    expect(readingConsumption(meter, 1200)).toEqual({ value: 0, basis: 'normal' });
  });
  it('goes across the rollover of the meter digits', () => {
    expect(readingConsumption({ ...meter, previous: 99_990 }, 15)).toEqual({ value: 25, basis: 'rollover' });
    // A 4-digit dial wraps at 10,000.
    expect(readingConsumption({ ...meter, digits: 4, previous: 9_998 }, 3)).toEqual({
      value: 5,
      basis: 'rollover',
    });
  });
  it('refuses a lower reading that no rollover explains', () => {
    expect(readingConsumption(meter, 1100)).toEqual({ value: null, basis: null });
  });
  it('counts a reverse meter down', () => {
    expect(readingConsumption({ ...meter, direction: -1 }, 1180)).toEqual({ value: 20, basis: 'reverse' });
    expect(readingConsumption({ ...meter, direction: -1, previous: 4 }, 99_996)).toEqual({
      value: 8,
      basis: 'reverse',
    });
    expect(readingConsumption({ ...meter, direction: -1 }, 1300)).toEqual({ value: null, basis: null });
  });
  it('adds the old meter up to its removal and the new one from its initial reading', () => {
    const swapped = { ...meter, previous: 3, swap: { oldPrevious: 5400, oldFinal: 5460, oldDigits: 5 } };
    expect(readingConsumption(swapped, 13)).toEqual({ value: 70, basis: 'swap' });
    // The new meter's reading is lower than the old one's: the swap explains it.
    expect(
      readingConsumption(
        { ...swapped, swap: { ...swapped.swap, oldDigits: 4, oldPrevious: 9990, oldFinal: 4 } },
        3,
      ),
    ).toEqual({
      value: 14,
      basis: 'swap',
    });
    expect(readingConsumption(swapped, 1)).toEqual({ value: null, basis: null });
  });
});

describe('thresholds', () => {
  const t = defaultThresholds;
  it('flags a consumption above the multiple of the seasonal average', () => {
    expect(consumptionFlags(31, { average: 10, active: true }, t)).toEqual(['above_average']);
    expect(consumptionFlags(30, { average: 10, active: true }, t)).toEqual([]);
    expect(consumptionFlags(31, { average: 10, active: true }, { ...t, multiple: 4 })).toEqual([]);
  });
  it('flags zero on an active consumer only', () => {
    expect(consumptionFlags(0, { average: 10, active: true }, t)).toEqual(['zero_active']);
    expect(consumptionFlags(0, { average: 10, active: false }, t)).toEqual([]);
  });
  it('flags an impossibly large consumption, with or without history', () => {
    expect(consumptionFlags(2001, { average: null, active: true }, t)).toEqual(['too_large']);
    expect(consumptionFlags(501, { average: null, active: true }, { ...t, maxConsumption: 500 })).toEqual([
      'too_large',
    ]);
    expect(consumptionFlags(500, { average: null, active: true }, { ...t, maxConsumption: 500 })).toEqual([]);
  });
  it('averages the same season of earlier years first', () => {
    const history = [
      { period: 1, consumption: 10 },
      { period: 2, consumption: 40 },
      { period: 1, consumption: 20 },
    ];
    expect(seasonalAverage(history, 1)).toBe(15);
    expect(seasonalAverage(history, 3)).toBe(23);
    expect(seasonalAverage([], 1)).toBeNull();
  });
});

describe('estimates', () => {
  it('takes the same period of last year', () => {
    expect(
      estimateConsumption({ sameLastYear: 42, history: [{ consumption: 1, days: 100 }], days: 120 }),
    ).toBe(42);
  });
  it('otherwise multiplies the average daily consumption by the days', () => {
    expect(
      estimateConsumption({
        sameLastYear: null,
        history: [
          { consumption: 30, days: 120 },
          { consumption: 60, days: 120 },
        ],
        days: 121,
      }),
    ).toBe(45);
    expect(estimateConsumption({ sameLastYear: null, history: [], days: 120 })).toBeNull();
  });
  it('turns an estimate into a reading on the dial', () => {
    expect(estimatedReading(99_990, 25, 5, 1)).toBe(15);
    expect(estimatedReading(10, 25, 5, -1)).toBe(99_985);
  });
});

describe('periods', () => {
  it('names periods the way a ΔΕΥΑ does', () => {
    expect(periodName(2026, 1, 4)).toBe('Α΄ τετράμηνο 2026');
    expect(periodName(2026, 3, 4, 'en')).toBe('3rd four-month period 2026');
    expect(periodName(2026, 2, 1)).toBe('Φεβρουάριος 2026');
    expect(periodName(2026, 1, 12)).toBe('Έτος 2026');
    expect(periodName(2026, 6, 2)).toBe('ΣΤ΄ δίμηνο 2026');
  });
  it('spans its months, leap years included', () => {
    expect(periodDates(2026, 1, 4)).toEqual({ fromDate: '2026-01-01', toDate: '2026-04-30' });
    expect(periodDates(2028, 1, 2)).toEqual({ fromDate: '2028-01-01', toDate: '2028-02-29' });
    expect(periodDates(2026, 3, 4)).toEqual({ fromDate: '2026-09-01', toDate: '2026-12-31' });
  });
  it('follows the periodicity row in force, not the first one, when a company changed it', () => {
    // Four-month periods since 2015; two-month ones from the 4th two-month period (July) of 2026 on.
    // Listed newest first (and with ids in that order) on purpose: the start decides, not the order.
    const rows = [
      { months: 2, startyear: 2026, startperiod: 4 },
      { months: 4, startyear: 2015, startperiod: 1 },
    ];
    expect(monthsInForce(rows, { year: 2025, period: 3 })).toBe(4);
    expect(monthsInForce(rows, { year: 2026, period: 1 })).toBe(4);
    expect(monthsInForce(rows, { year: 2026, period: 4 })).toBe(2);
    expect(monthsInForce(rows, { year: 2027, period: 1 })).toBe(2);
    // Before the first row: its periodicity (the earlier history followed it); no row: none.
    expect(monthsInForce(rows, { year: 2010, period: 1 })).toBe(4);
    expect(monthsInForce([], { year: 2026, period: 1 })).toBeNull();
    expect(monthsInForce([{ months: 3, startyear: 2026, startperiod: 2 }], { year: 2026, period: 2 })).toBe(
      3,
    );
  });
});

describe('the correction of an estimate', () => {
  it('measures from the estimated reading and may give back what was estimated too high', () => {
    const meter = { digits: 5, direction: 1 as const, previous: 130 };
    expect(correctedConsumption(meter, 120, 30)).toEqual({ value: -10, basis: 'correction' });
    expect(correctedConsumption(meter, 150, 30)).toEqual({ value: 20, basis: 'normal' });
    expect(correctedConsumption(meter, 90, 30)).toEqual({ value: null, basis: null });
  });
});

describe('issue 32 item 6: billing periods in the interface language', () => {
  it('names a bill’s Greek period in English, and leaves Greek and unknown names as they are', () => {
    expect(periodNameIn('Β΄ τετράμηνο 2026', 'en')).toBe('2nd four-month period 2026');
    expect(periodNameIn('ΣΤ΄ δίμηνο 2025', 'en')).toBe('6th two-month period 2025');
    expect(periodNameIn('Μάρτιος 2026', 'en')).toBe('March 2026');
    expect(periodNameIn('Έτος 2026', 'en')).toBe('Year 2026');
    expect(periodNameIn('Β΄ τετράμηνο 2026', 'el')).toBe('Β΄ τετράμηνο 2026');
    expect(periodNameIn('1/2026', 'en')).toBe('1/2026');
    for (const months of [1, 2, 3, 4, 6, 12]) {
      for (let period = 1; period <= 12 / months; period++) {
        expect(periodNameIn(periodName(2026, period, months), 'en')).toBe(
          periodName(2026, period, months, 'en'),
        );
      }
    }
  });
});
