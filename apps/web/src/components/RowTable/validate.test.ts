import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DecimalColumn, DraftRow, RowTableColumn } from './types.ts';
import { sameRow, shownRow, typedRow, validateCell } from './validate.ts';

beforeAll(async () => {
  await i18n.init({ lng: 'el', fallbackLng: 'el', resources: {} });
});

const price: DecimalColumn = { key: 'envtax', label: 'envtax', type: 'decimal', amount: 'price', min: '0' };
const percent: DecimalColumn = {
  key: 'discountPercent',
  label: 'discount',
  type: 'decimal',
  amount: 'percent',
  min: '0',
  max: '100',
};
const money: DecimalColumn = { key: 'minInstalment', label: 'min', type: 'decimal', amount: 'money' };
const columns: RowTableColumn[] = [price, percent, money];

describe('decimal columns of a row table (issue 32 item 5)', () => {
  it('shows what the server sends in the page language, and sends it back at its scale', () => {
    const fromServer: DraftRow = {
      id: 1,
      envtax: '0.0500',
      discountPercent: '10.00',
      minInstalment: '1135.30',
    };
    const shown = shownRow(fromServer, columns, 'el');
    expect(shown).toEqual({ id: 1, envtax: '0,05', discountPercent: '10,00', minInstalment: '1.135,30' });
    expect(shownRow(fromServer, columns, 'en')).toMatchObject({ minInstalment: '1,135.30' });
    // Unchanged by being shown: the row is not marked as edited, and it goes back as it came.
    expect(sameRow(shown, { ...shown }, columns)).toBe(true);
    expect(sameRow(shown, { ...shown, minInstalment: '1135,3' }, columns)).toBe(true);
    expect(typedRow(shown, columns)).toEqual({
      id: 1,
      envtax: '0.0500',
      discountPercent: '10.00',
      minInstalment: '1135.30',
    });
  });

  it('reads what a person types in either writing, and refuses what is no amount or out of bounds', () => {
    expect(
      typedRow({ id: -1, envtax: '0,425', discountPercent: '5', minInstalment: '1,135.3' }, columns),
    ).toEqual({
      id: null,
      envtax: '0.4250',
      discountPercent: '5.00',
      minInstalment: '1135.30',
    });
    expect(validateCell(price, '0,0125')).toBeUndefined();
    expect(validateCell(price, '0,00125')).toBe('validation.decimal_number');
    expect(validateCell(money, 'δέκα')).toBe('validation.decimal_number');
    expect(validateCell(price, '-1')).toContain('validation.min_value');
    expect(validateCell(percent, '100,01')).toContain('validation.max_value');
    expect(validateCell(percent, '100')).toBeUndefined();
  });
});
