import Checkbox from '@mui/material/Checkbox';
import Skeleton from '@mui/material/Skeleton';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { FieldDef } from '@protocol/contracts';
import type { Table } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { CellContent, NOTES_MAX_WIDTH, type Row } from './cells.tsx';
import type { Selection } from './useSelection.ts';

interface Props<T extends Row> {
  table: Table<T>;
  colSpan: number;
  /** Placeholders while the views and the first page load. */
  initialLoading: boolean;
  /** No 'empty' message over an error. */
  failed: boolean;
  selection: Selection<T>;
  onRowClick?: (row: T) => void;
  rowLabel: (row: T) => string;
}

/** The rows of the page: a checkbox each, then the cells; Enter or a click opens the row. */
export function TableRows<T extends Row>({
  table,
  colSpan,
  initialLoading,
  failed,
  selection,
  onRowClick,
  rowLabel,
}: Props<T>) {
  const { t } = useTranslation();
  const rows = table.getRowModel().rows;
  return (
    <TableBody>
      {initialLoading &&
        Array.from({ length: 8 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <TableRow key={index}>
            <TableCell colSpan={colSpan}>
              <Skeleton height={22} />
            </TableCell>
          </TableRow>
        ))}
      {!initialLoading && rows.length === 0 && !failed && (
        <TableRow>
          <TableCell colSpan={colSpan} sx={{ py: 6, textAlign: 'center', color: 'text.secondary' }}>
            <span data-testid="data-table-empty">{t('table.empty')}</span>
          </TableCell>
        </TableRow>
      )}
      {!initialLoading &&
        rows.map((tableRow) => {
          const row = tableRow.original;
          const isSelected = selection.selected.has(row.id);
          return (
            <TableRow
              key={tableRow.id}
              hover
              selected={isSelected}
              data-testid="data-table-row"
              data-id={row.id}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
              tabIndex={onRowClick ? 0 : undefined}
              onKeyDown={
                onRowClick
                  ? (event) => {
                      if (event.key === 'Enter' && event.target === event.currentTarget) onRowClick(row);
                    }
                  : undefined
              }
              sx={{
                cursor: onRowClick ? 'pointer' : undefined,
                '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
              }}
            >
              <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
                <Checkbox
                  size="small"
                  checked={isSelected}
                  onChange={() => selection.toggleRow(row)}
                  slotProps={{
                    input: {
                      'aria-label': t('table.selectRow', { item: rowLabel(row) }),
                      'data-testid': `row-select-${row.id}`,
                    } as object,
                  }}
                />
              </TableCell>
              {tableRow.getVisibleCells().map((cell) => {
                const field = cell.column.columnDef.meta as FieldDef;
                return (
                  <TableCell
                    key={cell.id}
                    data-field={field.id}
                    sx={{
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: field.wrap ? 'normal' : 'nowrap',
                      overflowWrap: field.wrap ? 'anywhere' : undefined,
                      maxWidth: field.notes ? NOTES_MAX_WIDTH : field.wrap ? field.width : undefined,
                      textAlign: field.type === 'number' || field.type === 'money' ? 'right' : undefined,
                      fontVariantNumeric:
                        field.type === 'date' || field.type === 'number' || field.type === 'money'
                          ? 'tabular-nums'
                          : undefined,
                    }}
                  >
                    <CellContent t={t} field={field} value={cell.getValue()} />
                  </TableCell>
                );
              })}
            </TableRow>
          );
        })}
    </TableBody>
  );
}
