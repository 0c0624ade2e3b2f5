import './i18n/index.ts';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { LIST_MAX_SIZE, type Page } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { catalogForUri } from './catalogs.ts';
import { formatValue, labelOf, type Row } from './cells.tsx';

/** Only list addresses of this application are fetched. */
function safeUri(uri: string | null): string | null {
  if (!uri?.startsWith('/api/') || uri.startsWith('//')) return null;
  return uri;
}

/**
 * /print?uri=…&columns=…&title=…: the list without the shell, all rows (size=-1), a plain
 * bordered table with the title and the date, then the browser's print dialog.
 */
export default function PrintPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const uri = safeUri(params.get('uri'));
  const title = params.get('title') ?? '';
  const autoPrint = params.get('autoprint') !== '0';
  const catalog = uri ? catalogForUri(uri) : undefined;
  const requested = (params.get('columns') ?? '').split(',').filter(Boolean);
  const fields = (requested.length > 0 ? requested : (catalog?.fields.map((field) => field.id) ?? []))
    .map((id) => catalog?.fields.find((field) => field.id === id))
    .filter((field) => field !== undefined);

  const address = uri ? `${uri}${uri.includes('?') ? '&' : '?'}page=0&size=-1` : null;
  const list = useQuery({
    queryKey: ['print', address],
    queryFn: ({ signal }) => api.get<Page<Row>>(address ?? '', { signal }),
    enabled: address !== null && catalog !== undefined,
    staleTime: 0,
  });

  useEffect(() => {
    document.title = title ? `${title} · ${t('app.name')}` : t('app.name');
  }, [title, t]);

  const printed = useRef(false);
  useEffect(() => {
    if (!list.isSuccess || printed.current || !autoPrint) return;
    printed.current = true;
    const timer = setTimeout(() => window.print(), 300);
    return () => clearTimeout(timer);
  }, [list.isSuccess, autoPrint]);

  if (!uri || !catalog) {
    return (
      <Box sx={{ p: 4 }}>
        <Alert severity="error">{t('print.invalid')}</Alert>
      </Box>
    );
  }

  const rows = list.data?.content ?? [];
  const truncated = (list.data?.totalElements ?? 0) > rows.length && rows.length >= LIST_MAX_SIZE;

  return (
    <Box
      component="main"
      data-testid="print-page"
      sx={{
        p: 4,
        bgcolor: '#fff',
        color: '#000',
        minHeight: '100vh',
        fontFamily: 'Roboto, "Segoe UI", Arial, "DejaVu Sans", sans-serif',
        '@media print': { p: 0 },
        '& table': { borderCollapse: 'collapse', width: '100%', fontSize: 12 },
        '& th, & td': {
          border: '1px solid #444',
          px: 0.75,
          py: 0.5,
          textAlign: 'left',
          verticalAlign: 'top',
        },
        '& th': { bgcolor: '#eee', fontWeight: 600 },
        '& thead': { display: 'table-header-group' },
        '& tr': { breakInside: 'avoid' },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', mb: 2, gap: 2 }}>
        <Box>
          <Box component="h1" sx={{ fontSize: 20, m: 0 }}>
            {title || t(catalog.titleKey)}
          </Box>
          <Box sx={{ fontSize: 12, color: '#444', mt: 0.5 }} data-testid="print-meta">
            {t('print.printedAt', { date: formatDateTime(new Date()) })}
            {list.data ? ` · ${t('table.total', { count: list.data.totalElements })}` : ''}
          </Box>
        </Box>
        <Button
          variant="outlined"
          size="small"
          startIcon={<PrintOutlinedIcon />}
          onClick={() => window.print()}
          sx={{ '@media print': { display: 'none' } }}
          data-testid="print-button"
        >
          {t('print.print')}
        </Button>
      </Box>
      {list.isPending && (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', py: 4 }}>
          <CircularProgress size={22} />
          {t('common.loading')}
        </Box>
      )}
      {list.isError && <Alert severity="error">{errorMessage(t, list.error)}</Alert>}
      {list.isSuccess && (
        <table data-testid="print-table">
          <thead>
            <tr>
              {fields.map((field) => (
                <th key={field.id} scope="col">
                  {labelOf(t, field)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                {fields.map((field) => (
                  <td key={field.id}>{formatValue(t, field, row[field.id])}</td>
                ))}
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={Math.max(1, fields.length)}>{t('table.empty')}</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      {truncated && <Box sx={{ mt: 1, fontSize: 12 }}>{t('print.truncated', { count: LIST_MAX_SIZE })}</Box>}
    </Box>
  );
}
