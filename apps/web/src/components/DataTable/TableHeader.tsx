import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Tooltip from '@mui/material/Tooltip';
import type { FieldDef } from '@protocol/contracts';
import type { Header } from '@tanstack/react-table';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { labelOf, type Row } from './cells.tsx';
import { HeaderFilter } from './HeaderFilter.tsx';
import type { ColumnSetting, FilterValue, QueryState, SortItem } from './state.ts';

export const HEADER_HEIGHT = 42;

interface Props<T extends Row> {
  headers: Header<T, unknown>[];
  query: QueryState;
  setQuery: (next: QueryState) => void;
  setFieldFilter: (field: string, values: FilterValue[], typing?: boolean) => void;
  columns: ColumnSetting[];
  setColumns: (next: ColumnSetting[]) => void;
  /** The page's select-all checkbox. */
  allOnPage: boolean;
  pageSelected: number;
  onTogglePage: () => void;
  rowCount: number;
}

/**
 * The two sticky header rows: labels with sorting (shift or ctrl adds a sort level, up to five) and
 * resize handles (double click restores the width), then the header filters.
 */
export function TableHeader<T extends Row>({
  headers,
  query,
  setQuery,
  setFieldFilter,
  columns,
  setColumns,
  allOnPage,
  pageSelected,
  onTogglePage,
  rowCount,
}: Props<T>) {
  const { t } = useTranslation();
  const onSort = (field: FieldDef, event: MouseEvent) => {
    const multi = event.shiftKey || event.ctrlKey || event.metaKey;
    const existing = query.sort.find((item) => item.id === field.id);
    let next: SortItem[];
    if (!multi) next = [{ id: field.id, desc: existing ? !existing.desc : false }];
    else if (!existing) next = [...query.sort, { id: field.id, desc: false }].slice(-5);
    else if (!existing.desc)
      next = query.sort.map((item) => (item.id === field.id ? { ...item, desc: true } : item));
    else {
      next = query.sort.filter((item) => item.id !== field.id);
      if (next.length === 0) next = [{ id: field.id, desc: false }];
    }
    setQuery({ ...query, sort: next, page: 0 });
  };

  return (
    <TableHead>
      <TableRow sx={{ height: HEADER_HEIGHT }}>
        <TableCell padding="checkbox" sx={{ ...headerCellSx, overflow: 'visible', textOverflow: 'clip' }}>
          <Checkbox
            size="small"
            checked={allOnPage}
            indeterminate={pageSelected > 0 && !allOnPage}
            onChange={onTogglePage}
            disabled={rowCount === 0}
            slotProps={{
              input: {
                'aria-label': t('table.selectPage'),
                'data-testid': 'row-select-page',
              } as object,
            }}
          />
        </TableCell>
        {headers.map((header) => {
          const field = header.column.columnDef.meta as FieldDef;
          const label = labelOf(t, field);
          const sortIndex = query.sort.findIndex((item) => item.id === field.id);
          const sortItem = query.sort[sortIndex];
          return (
            <TableCell
              key={header.id}
              sx={{ ...headerCellSx, position: 'sticky', pr: 1.5 }}
              sortDirection={sortItem ? (sortItem.desc ? 'desc' : 'asc') : false}
              data-testid={`header-${field.id}`}
            >
              {field.sortable ? (
                <Tooltip title={t('table.sortHint')} enterDelay={800} describeChild>
                  <TableSortLabel
                    active={sortItem !== undefined}
                    direction={sortItem?.desc ? 'desc' : 'asc'}
                    onClick={(event) => onSort(field, event)}
                    data-testid={`sort-${field.id}`}
                    data-sort={sortItem ? (sortItem.desc ? 'desc' : 'asc') : 'none'}
                    sx={{ maxWidth: '100%', '& .MuiTableSortLabel-icon': { flexShrink: 0 } }}
                  >
                    <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                      {label}
                    </Box>
                    {query.sort.length > 1 && sortItem && (
                      <Box component="sup" sx={{ fontSize: 10, ml: 0.25, color: 'primary.main' }}>
                        {sortIndex + 1}
                      </Box>
                    )}
                  </TableSortLabel>
                </Tooltip>
              ) : (
                label
              )}
              <Box
                role="separator"
                aria-orientation="vertical"
                aria-label={t('table.resize', { column: label })}
                onMouseDown={header.getResizeHandler()}
                onTouchStart={header.getResizeHandler()}
                onDoubleClick={() =>
                  setColumns(
                    columns.map((column) =>
                      column.id === field.id ? { ...column, width: field.width } : column,
                    ),
                  )
                }
                data-testid={`resize-${field.id}`}
                sx={(theme) => ({
                  position: 'absolute',
                  right: 0,
                  top: 8,
                  bottom: 8,
                  width: 7,
                  cursor: 'col-resize',
                  userSelect: 'none',
                  touchAction: 'none',
                  borderRight: `2px solid ${
                    header.column.getIsResizing() ? theme.palette.primary.main : theme.palette.divider
                  }`,
                  '&:hover': { borderRightColor: theme.palette.primary.main },
                })}
              />
            </TableCell>
          );
        })}
      </TableRow>
      <TableRow>
        <TableCell padding="checkbox" sx={{ ...filterCellSx }} />
        {headers.map((header) => {
          const field = header.column.columnDef.meta as FieldDef;
          return (
            <TableCell key={header.id} sx={filterCellSx}>
              {field.filters.length > 0 && (
                <HeaderFilter
                  field={field}
                  label={labelOf(t, field)}
                  values={query.filters[field.id] ?? []}
                  onChange={(values, typing) => setFieldFilter(field.id, values, typing)}
                />
              )}
            </TableCell>
          );
        })}
      </TableRow>
    </TableHead>
  );
}

const headerCellSx = {
  fontWeight: 600,
  fontSize: 13,
  color: 'text.secondary',
  bgcolor: 'background.paper',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  height: HEADER_HEIGHT,
  py: 0,
} as const;

const filterCellSx = {
  top: HEADER_HEIGHT,
  py: 0.75,
  px: 1,
  bgcolor: (theme: { palette: { mode: string } }) => (theme.palette.mode === 'light' ? '#fafafe' : '#1c1f28'),
} as const;
