import type { ExportColumn } from './types.ts';

/**
 * Column widths of a printed table (pdf, docx). `natural` is the width each column's content wants,
 * `minimum` the least it may get (e.g. its longest word, so no word breaks mid-way).
 * When everything fits, the spare room is shared out among the `growable` (text) columns so the table
 * fills the page. When it does not, the widest columns are capped at one common width c (they wrap),
 * and narrow ones (dates, amounts, flags) keep their natural width: Σ max(minᵢ, min(nᵢ, c)) = available.
 * When even the minimums do not fit, they are scaled down to the page.
 */
export function fitWidths(
  natural: number[],
  available: number,
  minimum: number | number[],
  growable: boolean[] = natural.map(() => true),
): number[] {
  const count = natural.length;
  if (count === 0) return [];
  const least = natural.map((_, index) => (typeof minimum === 'number' ? minimum : (minimum[index] ?? 0)));
  const leastTotal = least.reduce((sum, width) => sum + width, 0);
  if (leastTotal >= available) {
    return leastTotal > 0
      ? least.map((width) => (width * available) / leastTotal)
      : least.map(() => available / count);
  }
  const wanted = natural.map((width, index) => Math.max(least[index] ?? 0, width));
  const total = wanted.reduce((sum, width) => sum + width, 0);
  if (total <= available) {
    // Spare room goes to the text columns (wrapping ones read better wide); dates and amounts stay snug.
    const growing = wanted.reduce((sum, width, index) => sum + (growable[index] ? width : 0), 0);
    if (growing === 0) return wanted.map((width) => (width * available) / total);
    const spare = available - total;
    return wanted.map((width, index) => (growable[index] ? width + (spare * width) / growing : width));
  }
  const at = (cap: number) => wanted.map((width, index) => Math.max(least[index] ?? 0, Math.min(width, cap)));
  const sum = (widths: number[]) => widths.reduce((total, width) => total + width, 0);
  let low = 0;
  let high = Math.max(...wanted);
  for (let i = 0; i < 50; i++) {
    const middle = (low + high) / 2;
    if (sum(at(middle)) > available) high = middle;
    else low = middle;
  }
  const capped = at(low);
  // Hand the rounding remainder to the capped (wrapping) columns.
  const isCapped = capped.map((width, index) => width < (wanted[index] ?? 0));
  const wrapping = isCapped.filter(Boolean).length;
  const extra = (available - sum(capped)) / (wrapping || count);
  return capped.map((width, index) => (isCapped[index] || wrapping === 0 ? width + extra : width));
}

/** The longest word of a text (a column should be at least that wide): its length by `measure`. */
export function longestWord(text: string, measure: (word: string) => number): number {
  let longest = 0;
  for (const word of text.split(/\s+/)) if (word) longest = Math.max(longest, measure(word));
  return longest;
}

/** How many columns make a page landscape (spec: portrait up to 6 columns). */
export const PORTRAIT_MAX_COLUMNS = 6;

/** Text-like columns: they wrap and take the spare width of a table. */
export function isTextual(column: ExportColumn): boolean {
  return column.type === 'text' || column.type === 'enum' || column.type === 'reference';
}

/**
 * Collects what the columns of a printed table need from the header labels and sample rows, then fits
 * them to the page: full header labels when everything fits; otherwise headers may wrap at their words
 * and the room goes to the content.
 */
export class ColumnSizer {
  private readonly header: number[];
  private readonly content: number[];
  private readonly least: number[];

  constructor(
    labels: string[],
    measureHeader: (text: string) => number,
    private readonly measureBody: (text: string) => number,
    private readonly maxLine: number,
    private readonly maxWord: number,
  ) {
    this.header = labels.map((label) => this.lineWidth(label, measureHeader));
    this.content = labels.map(() => 0);
    this.least = labels.map((label) => Math.min(maxWord, longestWord(label, measureHeader)));
  }

  private lineWidth(text: string, measure: (text: string) => number): number {
    let longest = 0;
    for (const line of text.split(/\r?\n/)) longest = Math.max(longest, measure(line));
    return Math.min(this.maxLine, longest);
  }

  add(cells: string[]): void {
    cells.forEach((text, index) => {
      if (text === '') return;
      this.content[index] = Math.max(this.content[index] ?? 0, this.lineWidth(text, this.measureBody));
      this.least[index] = Math.max(
        this.least[index] ?? 0,
        Math.min(this.maxWord, longestWord(text, this.measureBody)),
      );
    });
  }

  fit(available: number, padding: number, minColumn: number, growable: boolean[]): number[] {
    const least = this.least.map((width) => Math.max(minColumn, width) + padding);
    const whole = this.content.map((width, index) => Math.max(width, this.header[index] ?? 0) + padding);
    if (whole.reduce((sum, width) => sum + width, 0) <= available) {
      return fitWidths(whole, available, least, growable);
    }
    const content = this.content.map((width) => width + padding);
    return fitWidths(content, available, least, growable);
  }
}
