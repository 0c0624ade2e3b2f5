import type { ElementType, FormElement, FormRow, FormStructure } from '@protocol/contracts';
import { isInput } from '@protocol/contracts';

/*
 * Pure edits of a form's rows for the builder: add, move, duplicate and delete rows and elements,
 * change a row's grid (elements of dropped columns move to the last one). Nothing here mutates.
 */

export function columnsOf(row: FormRow): FormElement[][] {
  return Array.from({ length: row.grid }, (_, i) => row[`elements${i + 1}`] ?? []);
}

export function withColumns(row: FormRow, columns: FormElement[][]): FormRow {
  const next: FormRow = {
    type: row.type,
    name: row.name,
    showTitle: row.showTitle,
    theme: row.theme,
    grid: columns.length,
    conditionals: row.conditionals,
  };
  columns.forEach((elements, i) => {
    next[`elements${i + 1}`] = elements;
  });
  return next;
}

export function newRow(type: FormRow['type'] = 'inputLayout'): FormRow {
  return withColumns(
    { type, name: '', showTitle: type === 'inputLayout', theme: 'Plain', grid: 1, conditionals: [] },
    [[]],
  );
}

/** Field names already used in the form. */
export function fieldNames(structure: FormStructure): string[] {
  return structure.flatMap((row) =>
    columnsOf(row)
      .flat()
      .filter(isInput)
      .map((e) => e.options.field ?? ''),
  );
}

/** A free field name like `field3`, `email2`. */
export function freeName(structure: FormStructure, base: string): string {
  const used = new Set(fieldNames(structure));
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}${n}`)) n++;
  return `${base}${n}`;
}

export function newElement(structure: FormStructure, type: ElementType, label: string): FormElement {
  if (type === 'heading' || type === 'paragraph') {
    return { type, options: { text: label }, items: [], validation: '', conditionals: [] };
  }
  const base = { afm: 'vatnumber', email: 'email', phone: 'phone', iban: 'iban', date: 'date', file: 'file' }[
    type as string
  ];
  const name = freeName(structure, base ?? 'field');
  const items =
    type === 'select' || type === 'radio'
      ? [
          { value: '1', label: '1' },
          { value: '2', label: '2' },
        ]
      : [];
  return { type, options: { field: name, label }, items, validation: '', conditionals: [] };
}

export function setGrid(row: FormRow, grid: number): FormRow {
  const columns = columnsOf(row);
  if (grid >= columns.length)
    return withColumns(row, [...columns, ...Array.from({ length: grid - columns.length }, () => [])]);
  const kept = columns.slice(0, grid);
  const dropped = columns.slice(grid).flat();
  kept[grid - 1] = [...(kept[grid - 1] ?? []), ...dropped];
  return withColumns(row, kept);
}

export function move<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** A copy of an element with a free field name, so the form stays saveable. */
export function duplicateElement(structure: FormStructure, element: FormElement): FormElement {
  const copy = structuredClone(element);
  if (isInput(copy) && copy.options.field) copy.options.field = freeName(structure, copy.options.field);
  return copy;
}

export function duplicateRow(structure: FormStructure, row: FormRow): FormRow {
  let working = [...structure];
  const columns = columnsOf(row).map((elements) =>
    elements.map((element) => {
      const copy = duplicateElement(working, element);
      working = [...working, withColumns(newRow(), [[copy]])];
      return copy;
    }),
  );
  return withColumns(structuredClone(row), columns);
}
