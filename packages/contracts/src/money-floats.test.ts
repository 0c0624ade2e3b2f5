import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moneyFloats } from '../../../scripts/count-money-floats.ts';

/**
 * No binary floats on money or rates outside the money engine (money.ts): the count of
 * scripts/count-money-floats.ts (`Number(` of an amount or a rate, any `.toFixed(`) stays at what was
 * left, which is none: a new one fails here with its file and line. The script says what it cannot see.
 */

describe('money floats', () => {
  it('finds no Number(…)/.toFixed(…) on money or rates outside the engine', () => {
    const found = moneyFloats(path.resolve(import.meta.dirname, '../../..'));
    expect(found.map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([]);
  });

  it('sees what it is meant to see', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'money-floats-'));
    for (const dir of ['apps/server/src', 'apps/web/src', 'packages/contracts/src']) {
      mkdirSync(path.join(root, dir), { recursive: true });
    }
    writeFileSync(
      path.join(root, 'apps/web/src/cell.tsx'),
      [
        'const a = Number(bill.vatTotal).toLocaleString();',
        'const b = total.toFixed(2);',
        'const c = Number(v.amountType);',
        'const d = Number(event.target.value);',
      ].join('\n'),
    );
    writeFileSync(path.join(root, 'apps/web/src/cell.test.tsx'), 'Number(line.net);');
    writeFileSync(path.join(root, 'packages/contracts/src/money.ts'), 'x.toFixed(2); Number(amount);');
    expect(moneyFloats(root).map((f) => [f.file, f.line])).toEqual([
      ['apps/web/src/cell.tsx', 1],
      ['apps/web/src/cell.tsx', 2],
    ]);
  });
});
