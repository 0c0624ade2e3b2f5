export { type ConfirmOptions, useConfirm } from './ConfirmDialog.tsx';
export { RowTable } from './RowTable.tsx';
export type {
  CellErrors,
  CellValue,
  DraftRow,
  RowTableColumn,
  RowTableOption,
  RowTableProps,
  TypedRow,
} from './types.ts';
