import { describe, expect, it } from 'vitest';
import { neutraliseFormula } from './csv.ts';
import {
  cleanText,
  formatBoolean,
  formatCell,
  formatDataCell,
  formatDate,
  formatDateTime,
} from './format.ts';
import { fitWidths } from './layout.ts';
import { contentDisposition, exportFileName } from './render.ts';

describe('dates', () => {
  it('shows a date-only string as DD/MM/YYYY without any zone shift', () => {
    expect(formatDate('2026-03-05')).toBe('05/03/2026');
    expect(formatDate('0999-12-31')).toBe('31/12/0999');
  });

  it('shows a Date or an ISO date-time as its calendar day in Athens', () => {
    expect(formatDate(new Date('2026-11-21T10:00:00Z'))).toBe('21/11/2026');
    // 22:30 UTC on 31 Dec is already 1 Jan in Athens (UTC+2).
    expect(formatDate('2025-12-31T22:30:00Z')).toBe('01/01/2026');
    // A date stored as UTC midnight stays that day.
    expect(formatDate(new Date(Date.UTC(2026, 6, 1)))).toBe('01/07/2026');
  });

  it('leaves empties empty and unparseable text as it is', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('σύντομα')).toBe('σύντομα');
  });

  it('formats the export time as DD/MM/YYYY H:mm:ss (spec §9 headers)', () => {
    expect(formatDateTime(new Date('2026-11-21T07:04:05Z'))).toBe('21/11/2026 9:04:05');
  });

  it('shifts by summer time on the right side of its changes in Athens', () => {
    // Summer time starts on 29 March 2026 at 01:00 UTC (03:00 → 04:00 in Athens) and ends on
    // 25 October 2026 at 01:00 UTC (04:00 → 03:00).
    expect(formatDateTime(new Date('2026-03-29T00:59:59Z'))).toBe('29/03/2026 2:59:59');
    expect(formatDateTime(new Date('2026-03-29T01:00:00Z'))).toBe('29/03/2026 4:00:00');
    expect(formatDateTime(new Date('2026-10-25T00:59:59Z'))).toBe('25/10/2026 3:59:59');
    expect(formatDateTime(new Date('2026-10-25T01:00:00Z'))).toBe('25/10/2026 3:00:00');
    // 21:30 UTC is midnight and a half in Athens in winter (UTC+2), not yet in summer (UTC+3 → 00:30 too).
    expect(formatDate('2026-03-28T22:30:00Z')).toBe('29/03/2026');
    expect(formatDate('2026-10-24T21:30:00Z')).toBe('25/10/2026');
    expect(formatDate('2026-10-24T20:59:59Z')).toBe('24/10/2026');
  });

  it('agrees with Intl to the second over years of instants, in zones with odd offsets too', () => {
    const zones = ['Europe/Athens', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'UTC'];
    for (const timeZone of zones) {
      const reference = new Intl.DateTimeFormat('en-GB', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: 'numeric',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
      // Every 27,449 seconds (a prime: every minute of the hour comes round) from 2024 to 2027.
      for (let time = Date.UTC(2024, 0, 1); time < Date.UTC(2027, 0, 1); time += 27_449_000) {
        const parts = Object.fromEntries(
          reference.formatToParts(new Date(time)).map((part) => [part.type, part.value]),
        );
        const expected = `${parts.day}/${parts.month}/${parts.year} ${Number(parts.hour)}:${parts.minute}:${parts.second}`;
        expect(formatDateTime(new Date(time), timeZone), `${timeZone} ${new Date(time).toISOString()}`).toBe(
          expected,
        );
      }
    }
  });
});

describe('money, from decimal strings', () => {
  it('rounds half away from zero in decimal, not binary, arithmetic (the money engine of contracts)', () => {
    const data = (value: unknown) => formatDataCell(value, 'money', 'el');
    expect(data('1234.5')).toBe('1234.50');
    expect(data('1.005')).toBe('1.01'); // 1.005 as a float is 1.00499999…
    expect(data('-7.005')).toBe('-7.01');
    expect(data('1.004')).toBe('1.00');
    expect(data('-0.001')).toBe('0.00');
    expect(data('999999999999999999.995')).toBe('1000000000000000000.00');
    expect(data('.5')).toBe('0.50');
    expect(data('+12')).toBe('12.00');
    expect(data(12.5)).toBe('12.50');
    expect(data(1e-7)).toBe('0.00');
    // Not numbers: shown as they are.
    expect(data('12,50')).toBe('12,50');
    expect(data('abc')).toBe('abc');
  });

  it('shows amounts as the screens do: 2 decimals with the language separators, prices to 4', () => {
    expect(formatCell('1234.5', 'money', 'el')).toBe('1.234,50');
    expect(formatCell('1234567.891', 'money', 'en')).toBe('1,234,567.89');
    expect(formatCell('-0.5', 'money', 'el')).toBe('-0,50');
    expect(formatCell('12', 'money', 'el')).toBe('12,00');
    expect(formatCell(null, 'money', 'el')).toBe('');
    expect(formatCell('0.0125', 'money', 'el', undefined, 'price')).toBe('0,0125');
    expect(formatCell('24.00', 'money', 'en', undefined, 'percent')).toBe('24.00');
  });

  it('keeps money machine-readable in data files, to the scale of its kind', () => {
    expect(formatDataCell('1234.5', 'money', 'el')).toBe('1234.50');
    expect(formatDataCell('0.0125', 'money', 'el', undefined, 'price')).toBe('0.0125');
    expect(formatDataCell('-3.14159', 'number', 'el')).toBe('-3.14159');
  });
});

describe('booleans and other values', () => {
  it('says Ναι/Όχι in Greek and Yes/No in English', () => {
    expect(formatBoolean(true, 'el')).toBe('Ναι');
    expect(formatBoolean(false, 'el')).toBe('Όχι');
    expect(formatBoolean(true, 'en')).toBe('Yes');
    expect(formatBoolean(false, 'en')).toBe('No');
    expect(formatBoolean(null, 'en')).toBe('');
  });

  it('shows null and undefined as empty in every type', () => {
    for (const type of ['text', 'number', 'money', 'date', 'enum', 'boolean', 'reference'] as const) {
      expect(formatCell(null, type, 'el')).toBe('');
      expect(formatCell(undefined, type, 'el')).toBe('');
    }
  });

  it('shows references by their label or name', () => {
    expect(formatCell({ id: 4, name: 'Βόρειος Τομέας' }, 'reference', 'el')).toBe('Βόρειος Τομέας');
    expect(formatCell(['Α', 'Β'], 'enum', 'el')).toBe('Α, Β');
    expect(formatCell('1234.5', 'number', 'el')).toBe('1234,5');
  });

  it('drops characters XML cannot hold', () => {
    expect(cleanText('a\u0000b\u0007c\td\ne')).toBe('abc\td\ne');
  });
});

describe('CSV formula injection', () => {
  it('neutralises cells that start with = + - @ tab or CR', () => {
    expect(neutraliseFormula('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(neutraliseFormula('+30 210 1234567')).toBe("'+30 210 1234567");
    expect(neutraliseFormula('-2+3+cmd|')).toBe("'-2+3+cmd|");
    expect(neutraliseFormula('@SUM(1)')).toBe("'@SUM(1)");
    expect(neutraliseFormula('\t=1')).toBe("'\t=1");
    expect(neutraliseFormula('\r=1')).toBe("'\r=1");
    expect(neutraliseFormula('Παπαδοπούλου')).toBe('Παπαδοπούλου');
    expect(neutraliseFormula('a=b')).toBe('a=b');
  });

  it('leaves plain negative numbers alone: they cannot be formulas', () => {
    expect(neutraliseFormula('-12.50')).toBe('-12.50');
    expect(neutraliseFormula('-12')).toBe('-12');
  });
});

describe('file names', () => {
  const at = new Date('2026-11-21T10:00:00Z');

  it('is the Greek title and the day, with safe characters only', () => {
    expect(exportFileName('Χειριστές', 'excel', at)).toBe('Χειριστές_21-11-2026.xlsx');
    expect(exportFileName('Εισερχόμενα / Εξερχόμενα: 2026?', 'pdf', at)).toBe(
      'Εισερχόμενα_Εξερχόμενα_2026_21-11-2026.pdf',
    );
    expect(exportFileName('../..\\etc', 'csv', at)).toBe('etc_21-11-2026.csv');
    expect(exportFileName('', 'word', at)).toBe('export_21-11-2026.docx');
  });

  it('uses the day in Athens', () => {
    expect(exportFileName('Χειριστές', 'csv', new Date('2026-11-21T23:30:00Z'))).toBe(
      'Χειριστές_22-11-2026.csv',
    );
  });

  it('gives a Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    const header = contentDisposition('Χειριστές_21-11-2026.xlsx');
    expect(header).toBe(
      `attachment; filename="export_21-11-2026.xlsx"; filename*=UTF-8''${encodeURIComponent('Χειριστές_21-11-2026.xlsx')}`,
    );
  });
});

describe('column widths', () => {
  it('fills the page, giving the spare room to text columns', () => {
    const widths = fitWidths([100, 50, 50], 400, 20, [true, false, false]);
    expect(widths).toEqual([300, 50, 50]);
  });

  it('caps the widest columns when the content does not fit, keeping narrow ones', () => {
    const widths = fitWidths([600, 60, 400, 40], 500, 30);
    expect(widths.reduce((a, b) => a + b, 0)).toBeCloseTo(500);
    expect(widths[1]).toBeCloseTo(60);
    expect(widths[3]).toBeCloseTo(40);
    expect(widths[0]).toBeCloseTo(200);
    expect(widths[2]).toBeCloseTo(200);
  });
});
