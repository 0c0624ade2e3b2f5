import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import NativeSelect from '@mui/material/NativeSelect';
import Typography from '@mui/material/Typography';
import { LIST_SIZE_OPTIONS } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import type { QueryState } from './state.ts';

function sizeLabel(t: (key: string) => string, size: number): string {
  return size === -1 ? t('table.all') : String(size);
}

interface Props {
  query: QueryState;
  setQuery: (next: QueryState) => void;
  total: number;
  /** The total is the server's estimate (a large list): shown as "about N". */
  totalEstimated?: boolean;
  totalPages: number;
  selectedCount: number;
  /** The id of the total, which describes the table. */
  totalId: string;
}

/** The footer: total and selected count, page size, the rows shown, and the page buttons. */
export function Pagination({
  query,
  setQuery,
  total,
  totalEstimated = false,
  totalPages,
  selectedCount,
  totalId,
}: Props) {
  const { t } = useTranslation();
  const from = total === 0 ? 0 : query.size === -1 ? 1 : query.page * query.size + 1;
  const to = query.size === -1 ? total : Math.min(total, (query.page + 1) * query.size);
  const lastPage = Math.max(0, totalPages - 1);
  const goTo = (page: number) => setQuery({ ...query, page: Math.min(Math.max(0, page), lastPage) });
  const sizeOptions: number[] = [...LIST_SIZE_OPTIONS];
  if (!sizeOptions.includes(query.size)) sizeOptions.splice(-1, 0, query.size);

  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 2,
        px: 2,
        py: 0.75,
        borderTop: 1,
        borderColor: 'divider',
        fontSize: 13,
      }}
    >
      <Typography
        variant="body2"
        id={totalId}
        data-testid="table-total"
        data-total={total}
        data-estimated={totalEstimated || undefined}
      >
        {totalEstimated ? t('table.totalAbout', { count: total }) : t('table.total', { count: total })}
        {selectedCount > 0 && (
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {' · '}
            {t('table.selectedCount', { count: selectedCount })}
          </Box>
        )}
      </Typography>
      <Box sx={{ flexGrow: 1 }} />
      <Box component="label" sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
        <Typography variant="body2" component="span">
          {t('table.pageSize')}
        </Typography>
        <NativeSelect
          value={query.size}
          onChange={(event) => setQuery({ ...query, size: Number(event.target.value), page: 0 })}
          inputProps={{ 'data-testid': 'page-size' } as object}
          sx={{ fontSize: 13 }}
          disableUnderline
        >
          {sizeOptions.map((size) => (
            <option key={size} value={size}>
              {sizeLabel(t, size)}
            </option>
          ))}
        </NativeSelect>
      </Box>
      <Typography variant="body2" color="text.secondary" data-testid="table-range">
        {t(totalEstimated ? 'table.rangeAbout' : 'table.range', { from, to, total })}
      </Typography>
      <Box sx={{ display: 'flex' }}>
        <IconButton
          size="small"
          aria-label={t('table.firstPage')}
          disabled={query.page === 0}
          onClick={() => goTo(0)}
          data-testid="page-first"
        >
          <FirstPageIcon fontSize="small" />
        </IconButton>
        <IconButton
          size="small"
          aria-label={t('table.previousPage')}
          disabled={query.page === 0}
          onClick={() => goTo(query.page - 1)}
          data-testid="page-prev"
        >
          <ChevronLeftIcon fontSize="small" />
        </IconButton>
        <IconButton
          size="small"
          aria-label={t('table.nextPage')}
          disabled={query.page >= lastPage}
          onClick={() => goTo(query.page + 1)}
          data-testid="page-next"
        >
          <ChevronRightIcon fontSize="small" />
        </IconButton>
        <IconButton
          size="small"
          aria-label={t('table.lastPage')}
          disabled={query.page >= lastPage}
          onClick={() => goTo(lastPage)}
          data-testid="page-last"
        >
          <LastPageIcon fontSize="small" />
        </IconButton>
      </Box>
    </Box>
  );
}
