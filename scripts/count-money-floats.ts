/**
 * Counts binary-float handling of money and rates outside the money engine
 * (packages/contracts/src/money.ts): every `.toFixed(` and every `Number(` whose argument names an
 * amount or a rate, in the product's source (apps/server/src, apps/web/src, packages/contracts/src;
 * tests left out). `npm run count:money` prints them; packages/contracts/src/money-floats.test.ts fails
 * when the count rises above the one it states.
 *
 * What it can see: `.toFixed(` anywhere (money or not: a file size in MB is listed in ALLOWED with its
 * reason), and `Number(x)` where an identifier in x ends in a word of MONEY_WORDS (`Number(line.net)`,
 * `Number(bill.vatTotal)`; not `Number(v.amountType)`). What it cannot: a float made another way
 * (`+value`, `parseFloat`, arithmetic on a number the JSON parser made, `Number(x)` of a money value in
 * a variable with a neutral name such as `Number(value)`), nor a `Number(` of a word outside the list.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['apps/server/src', 'apps/web/src', 'packages/contracts/src'];
const ENGINE = 'packages/contracts/src/money.ts';

/** Words that name an amount or a rate (whole camelCase parts, lower case). */
const MONEY_WORDS = new Set([
  'amount',
  'amounts',
  'money',
  'total',
  'totals',
  'price',
  'prices',
  'vat',
  'percent',
  'percentage',
  'rate',
  'rates',
  'net',
  'gross',
  'balance',
  'debt',
  'debts',
  'paid',
  'discount',
  'remaining',
  'credit',
  'debit',
  'fee',
  'fees',
  'tax',
  'interest',
  'charge',
  'charges',
  'payable',
  'due',
  'instalment',
  'down',
  'payment',
  'cents',
]);

/** Matches that are not money, each with its reason: `file` relative to the repository. */
const ALLOWED: { file: string; text: string; why: string }[] = [
  { file: 'apps/server/src/db/backup.ts', text: '.toFixed(1)} MB', why: 'a file size in megabytes' },
  {
    file: 'apps/web/src/features/billing/PricingPolicyEditPage.tsx',
    text: 'Number(v.vat[c])',
    why: "the VAT table's row chosen for a charge: an id, not a rate",
  },
];

export interface MoneyFloat {
  file: string;
  line: number;
  text: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The text inside the parentheses that open at `open`, or the rest of the text when unbalanced. */
function argumentAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/** The last camelCase part of each identifier: `vatTotal` is a total, `amountType` a type. */
const wordsOf = (code: string) =>
  (code.match(/[A-Za-z_$][\w$]*/g) ?? []).map(
    (identifier) =>
      identifier
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[\s_]+/)
        .at(-1) ?? '',
  );

/** Every binary-float use on money or rates outside the engine, in the repository at `root`. */
export function moneyFloats(root: string): MoneyFloat[] {
  const found: MoneyFloat[] = [];
  for (const dir of ROOTS) {
    for (const full of sourceFiles(path.join(root, dir))) {
      const file = path.relative(root, full).split(path.sep).join('/');
      if (file === ENGINE) continue;
      const text = readFileSync(full, 'utf8');
      const lineAt = (index: number) => text.slice(0, index).split('\n').length;
      for (const match of text.matchAll(/\.toFixed\(|\bNumber\(/g)) {
        const index = match.index;
        const line = lineAt(index);
        const source = text.split('\n')[line - 1]?.trim() ?? '';
        if (match[0] === 'Number(') {
          const argument = argumentAt(text, index + 'Number'.length);
          if (!wordsOf(argument).some((word) => MONEY_WORDS.has(word))) continue;
        }
        if (ALLOWED.some((allowed) => allowed.file === file && source.includes(allowed.text))) continue;
        found.push({ file, line, text: source });
      }
    }
  }
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const found = moneyFloats(path.resolve(import.meta.dirname, '..'));
  for (const f of found) console.log(`${f.file}:${f.line}  ${f.text}`);
  console.log(`${found.length} Number(…)/.toFixed(…) on money or rates outside ${ENGINE}`);
}
