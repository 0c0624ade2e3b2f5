import { useEffect, useState } from 'react';
import type { Row } from './cells.tsx';

/** The selected rows, kept across pages (by id), and the page's select-all checkbox. */
export function useSelection<T extends Row>(rows: T[], onSelectionChange?: (rows: T[]) => void) {
  const [selected, setSelected] = useState<Map<T['id'], T>>(() => new Map());
  const toggleRow = (row: T) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row);
      return next;
    });
  useEffect(() => {
    onSelectionChange?.([...selected.values()]);
  }, [selected, onSelectionChange]);
  const pageSelected = rows.filter((row) => selected.has(row.id)).length;
  const allOnPage = rows.length > 0 && pageSelected === rows.length;
  const togglePage = () =>
    setSelected((current) => {
      const next = new Map(current);
      if (allOnPage) for (const row of rows) next.delete(row.id);
      else for (const row of rows) next.set(row.id, row);
      return next;
    });
  const clear = () => setSelected(new Map());
  return { selected, toggleRow, togglePage, pageSelected, allOnPage, clear };
}

export type Selection<T extends Row> = ReturnType<typeof useSelection<T>>;
