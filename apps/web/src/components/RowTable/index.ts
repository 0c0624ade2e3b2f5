export { RowTable } from './RowTable.tsx';
export type {
  CellErrors,
  CellType,
  CellValue,
  DraftRow,
  RowTableColumn,
  RowTableOption,
  RowTableProps,
  TypedRow,
} from './types.ts';
