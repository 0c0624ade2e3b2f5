import './i18n/index.ts';
import Box from '@mui/material/Box';
import type { Permission } from '@protocol/contracts';
import type { ReactNode } from 'react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PageHeader } from '../../components/PageHeader.tsx';
import {
  type CellValue,
  type DraftRow,
  RowTable,
  type RowTableColumn,
  type TypedRow,
} from '../../components/RowTable/index.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import type { Icon } from '../../lib/feature.ts';
import { useCan } from '../../lib/permissions.ts';

export interface FinanceTableProps<T extends { id: number }> {
  /** GET and POST (row-table save) address, without the company. */
  path: string;
  titleKey: string;
  subtitleKey: string;
  icon: Icon;
  testId: string;
  columns: RowTableColumn[];
  itemSchema: z.ZodType<T>;
  rowSchema: z.ZodType;
  newRow: () => Record<string, CellValue>;
  /** Who may save (the server checks it too). */
  write: Permission;
  /** Above the table (e.g. the accounting plan's mask). */
  children?: ReactNode;
  /** Below the table (e.g. the items' stock). */
  below?: ReactNode;
}

/**
 * A finance master-data screen: its header and a row table saved whole (spec §4 'Row tables'); the
 * item's fields are the columns, sent as typed (amounts stay decimal strings, never floats).
 */
export function FinanceTable<T extends { id: number }>(props: FinanceTableProps<T>) {
  const { t } = useTranslation();
  const can = useCan();
  const title = t(props.titleKey);
  useAppBar({ title: t('finance.menu') });
  const listSchema = useMemo(() => z.array(props.itemSchema), [props.itemSchema]);
  const parse = useCallback((data: unknown) => listSchema.parse(data), [listSchema]);
  const { columns } = props;
  const fromServer = useCallback(
    (item: T): DraftRow => {
      const record = item as unknown as Record<string, unknown>;
      const draft: DraftRow = { id: item.id };
      for (const column of columns) {
        const value = record[column.key];
        draft[column.key] =
          typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
      }
      return draft;
    },
    [columns],
  );
  const toPayload = useCallback(
    (row: TypedRow) => {
      const out: Record<string, unknown> = { id: row.id };
      for (const column of columns) out[column.key] = row[column.key] ?? null;
      return out;
    },
    [columns],
  );
  const path = props.path;
  const Avatar = props.icon;
  return (
    <Box data-testid={props.testId}>
      <PageHeader title={title} subtitle={t(props.subtitleKey)} avatar={<Avatar />} />
      {props.children}
      <RowTable<T>
        path={path}
        title={title}
        columns={columns}
        fromServer={fromServer}
        toPayload={toPayload}
        parse={parse}
        rowSchema={props.rowSchema}
        newRow={props.newRow}
        descriptionColumn="descr"
        readOnly={can(props.write) ? undefined : t('finance.readOnly')}
      />
      {props.below}
    </Box>
  );
}
