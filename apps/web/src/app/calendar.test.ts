/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { utilityYear } from '@protocol/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The web app's "today" and "this year" are the utility's (Europe/Athens), never the browser's:
 * an operator abroad, or a browser on UTC on New Year's Eve, would otherwise default a new
 * protocol book, a periodicity or a billing run to the wrong year.
 */
const SRC = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The browser's calendar: its year, month or day of now, or the UTC day of an instant. */
const BROWSER_CALENDAR =
  /\.getFullYear\(\)|\.getMonth\(\)|\.getDate\(\)|toISOString\(\)\.(slice|substring)\(0, 10\)|(dayjs|localDate)\(\)\.(year|month|date)\(\)/;

describe('the calendar of the web app', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('issue 29 item 16: no screen takes the browser’s year or the UTC day; at 2026-12-31T23:30Z the year is 2027', () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => BROWSER_CALENDAR.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC, file));
    expect(offenders).toEqual([]);
    vi.useFakeTimers({ now: new Date('2026-12-31T23:30:00Z') });
    expect(utilityYear()).toBe(2027);
  });
});
