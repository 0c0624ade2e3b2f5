import './i18n/index.ts';
import GridOnOutlinedIcon from '@mui/icons-material/GridOnOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type BookSummary, type BookSummaryEntry, type ProtocolBook, utilityDay } from '@protocol/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { DATE_FORMAT, formatDate, formatDateTime } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { blobUrl, fetchFile, saveBlob } from '../../lib/files.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';

dayjs.extend(customParseFormat);

const ISO = 'YYYY-MM-DD';

/** DD/MM/YYYY (also D/M/YYYY, with - or .) to YYYY-MM-DD, or null. */
function parseShown(text: string): string | null {
  const date = dayjs(text.trim(), ['DD/MM/YYYY', 'D/M/YYYY', 'DD-MM-YYYY', 'DD.MM.YYYY'], true);
  return date.isValid() ? date.format(ISO) : null;
}
const shown = (iso: string) => dayjs(iso, ISO, true).format(DATE_FORMAT);

const isIso = (value: string | null): value is string => value !== null && dayjs(value, ISO, true).isValid();

/** A book as the select shows it: description, year, type, and whether it is still active. */
function bookLabel(t: (key: string) => string, book: ProtocolBook): string {
  const type = book.booktype.incoming ? t('bookSummary.screen.incoming') : t('bookSummary.screen.outgoing');
  const name = book.descr.toLocaleLowerCase('el');
  // What the description does not already say: the year, the type, and whether it is inactive.
  const extra = [
    name.includes(String(book.year)) ? null : String(book.year),
    name.includes(type.toLocaleLowerCase('el')) ? null : type,
    book.isActive ? null : t('bookSummary.screen.inactive'),
  ].filter(Boolean);
  return extra.length > 0 ? `${book.descr} (${extra.join(', ')})` : book.descr;
}

/** The default book: an active one of this year (incoming first), else the newest. */
function defaultBook(books: ProtocolBook[], year: number): ProtocolBook | undefined {
  const sorted = [...books].sort(
    (a, b) => b.year - a.year || Number(b.isActive) - Number(a.isActive) || a.booktype.id - b.booktype.id,
  );
  return sorted.find((book) => book.isActive && book.year === year) ?? sorted[0];
}

/** The file name of a Content-Disposition header (RFC 5987 first). */
function fileNameOf(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = header.match(/filename\*=UTF-8''([^;]+)/i);
  if (extended?.[1]) return decodeURIComponent(extended[1]);
  const plain = header.match(/filename="?([^";]+)"?/i);
  return plain?.[1] ?? fallback;
}

/** GET a file with the session's token and the name the server gives it. */
async function fetchBook(path: string): Promise<{ blob: Blob; fileName: string }> {
  const response = await fetchFile(path);
  return {
    blob: await response.blob(),
    fileName: fileNameOf(response.headers.get('Content-Disposition'), 'book'),
  };
}

interface Filter {
  bookId: number;
  from: string;
  to: string;
}

/** /book_summary: the protocol book of a book and a date range, on screen, as PDF (also to print) and Excel. */
export default function BookSummaryPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const notify = useNotify();
  const title = t('bookSummary.title');
  useAppBar({ title });
  const [params, setParams] = useSearchParams();
  const today = utilityDay(new Date());
  const yearStart = `${today.slice(0, 4)}-01-01`;

  const books = useQuery({
    queryKey: ['parametrics', 'book'],
    queryFn: ({ signal }) => api.get<ProtocolBook[]>('/api/parametrics/book', { signal }),
  });
  const paramBook = Number(params.get('bookId'));
  const chosenBook =
    books.data?.find((book) => book.id === paramBook) ??
    defaultBook(books.data ?? [], Number(today.slice(0, 4)));
  const from = isIso(params.get('from')) ? (params.get('from') as string) : yearStart;
  const to = isIso(params.get('to')) ? (params.get('to') as string) : today;
  const [fromText, setFromText] = useState(() => shown(from));
  const [toText, setToText] = useState(() => shown(to));
  const fromTyped = parseShown(fromText);
  const toTyped = parseShown(toText);
  const rangeError = fromTyped && toTyped && fromTyped > toTyped;

  const update = (next: Partial<Record<'bookId' | 'from' | 'to', string>>) =>
    setParams(
      (current) => {
        const merged = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) merged.set(key, value);
        return merged;
      },
      { replace: true },
    );

  const filter: Filter | null = chosenBook && from <= to ? { bookId: chosenBook.id, from, to } : null;
  const query = filter
    ? new URLSearchParams({ bookId: String(filter.bookId), from: filter.from, to: filter.to }).toString()
    : '';
  const summary = useQuery({
    queryKey: ['protocol', 'book_summary', query],
    queryFn: ({ signal }) => api.get<BookSummary>(`/api/protocol/book_summary?${query}`, { signal }),
    enabled: filter !== null,
    placeholderData: keepPreviousData,
    retry: (count, failure) => !(isApiError(failure) && failure.status < 500) && count < 2,
  });

  const [downloading, setDownloading] = useState<'pdf' | 'xlsx' | 'print' | null>(null);
  const filePath = (format: 'pdf' | 'xlsx') =>
    `/api/protocol/book_summary/file?${query}&format=${format}&lang=${lang}`;
  const download = async (format: 'pdf' | 'xlsx') => {
    setDownloading(format);
    try {
      const file = await fetchBook(filePath(format));
      saveBlob(file.blob, file.fileName);
      notify(t('bookSummary.screen.downloaded', { name: file.fileName }), 'success');
    } catch (failure) {
      notify(errorMessage(t, failure), 'error');
    } finally {
      setDownloading(null);
    }
  };
  /** The PDF in a new tab, where the browser's viewer prints it (the window opens on the click, before the fetch). */
  const print = async () => {
    const target = window.open('', '_blank');
    setDownloading('print');
    try {
      const file = await fetchBook(filePath('pdf'));
      const url = blobUrl(file.blob, 'application/pdf');
      if (target) target.location.href = url;
      else {
        saveBlob(file.blob, file.fileName);
        notify(t('bookSummary.screen.popupBlocked'), 'warning');
      }
    } catch (failure) {
      target?.close();
      notify(errorMessage(t, failure), 'error');
    } finally {
      setDownloading(null);
    }
  };

  if (isApiError(summary.error) && summary.error.status === 403) {
    return <ForbiddenPage message={t('bookSummary.screen.forbidden')} />;
  }
  if (isApiError(books.error) && books.error.status === 403) {
    return <ForbiddenPage message={errorMessage(t, books.error)} />;
  }
  const entries = summary.data?.entries ?? [];
  const ready = filter !== null && summary.data !== undefined && !summary.error;
  return (
    <Box data-testid="book-summary-page">
      <PageHeader
        title={title}
        subtitle={t('bookSummary.screen.subtitle')}
        avatar={<MenuBookOutlinedIcon />}
        testId="book-summary-header"
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<PictureAsPdfOutlinedIcon />}
              disabled={!ready || downloading !== null}
              loading={downloading === 'pdf'}
              onClick={() => void download('pdf')}
              data-testid="book-summary-pdf"
            >
              {t('bookSummary.screen.pdf')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<GridOnOutlinedIcon />}
              disabled={!ready || downloading !== null}
              loading={downloading === 'xlsx'}
              onClick={() => void download('xlsx')}
              data-testid="book-summary-excel"
            >
              {t('bookSummary.screen.excel')}
            </Button>
            <Button
              variant="contained"
              startIcon={<PrintOutlinedIcon />}
              disabled={!ready || downloading !== null}
              loading={downloading === 'print'}
              onClick={() => void print()}
              data-testid="book-summary-print"
            >
              {t('bookSummary.screen.print')}
            </Button>
          </Box>
        }
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 2.5 }, mb: 3 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <TextField
            select
            label={t('bookSummary.screen.book')}
            value={chosenBook ? String(chosenBook.id) : ''}
            onChange={(event) => update({ bookId: event.target.value })}
            disabled={!books.data || books.data.length === 0}
            sx={{ minWidth: 320, flex: '1 1 320px' }}
            slotProps={{
              select: { native: true },
              inputLabel: { shrink: true },
              htmlInput: { 'data-testid': 'book-summary-book' },
            }}
          >
            {!chosenBook && <option value="">{t('bookSummary.screen.chooseBook')}</option>}
            {[...(books.data ?? [])]
              .sort(
                (a, b) =>
                  b.year - a.year || a.booktype.id - b.booktype.id || a.descr.localeCompare(b.descr, 'el'),
              )
              .map((book) => (
                <option key={book.id} value={book.id}>
                  {bookLabel(t, book)}
                </option>
              ))}
          </TextField>
          <TextField
            label={t('bookSummary.screen.from')}
            value={fromText}
            onChange={(event) => {
              setFromText(event.target.value);
              const iso = parseShown(event.target.value);
              if (iso) update({ from: iso });
            }}
            error={!fromTyped || Boolean(rangeError)}
            helperText={
              !fromTyped
                ? t('bookSummary.screen.invalidDate')
                : rangeError
                  ? t('bookSummary.screen.invalidRange')
                  : t('common.dateHint')
            }
            sx={{ width: 190 }}
            slotProps={{ htmlInput: { 'data-testid': 'book-summary-from', inputMode: 'numeric' } }}
          />
          <TextField
            label={t('bookSummary.screen.to')}
            value={toText}
            onChange={(event) => {
              setToText(event.target.value);
              const iso = parseShown(event.target.value);
              if (iso) update({ to: iso });
            }}
            error={!toTyped}
            helperText={!toTyped ? t('bookSummary.screen.invalidDate') : t('common.dateHint')}
            sx={{ width: 190 }}
            slotProps={{ htmlInput: { 'data-testid': 'book-summary-to', inputMode: 'numeric' } }}
          />
        </Box>
      </Paper>
      {books.error ? (
        <RetryAlert error={books.error} onRetry={() => void books.refetch()} />
      ) : books.data && books.data.length === 0 ? (
        <Alert severity="info" data-testid="book-summary-no-books">
          {t('bookSummary.screen.noBooks')}
        </Alert>
      ) : summary.error ? (
        <RetryAlert error={summary.error} onRetry={() => void summary.refetch()} />
      ) : !summary.data ? (
        <Skeleton variant="rounded" height={320} />
      ) : (
        <EntriesTable summary={summary.data} entries={entries} loading={summary.isFetching} />
      )}
    </Box>
  );
}

function EntriesTable({
  summary,
  entries,
  loading,
}: {
  summary: BookSummary;
  entries: BookSummaryEntry[];
  loading: boolean;
}) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const head = (key: string, sx: object = {}) => (
    <TableCell
      sx={{
        fontWeight: 600,
        color: 'text.secondary',
        whiteSpace: 'nowrap',
        bgcolor: 'background.paper',
        ...sx,
      }}
    >
      {t(`bookSummary.column.${key}`)}
    </TableCell>
  );
  return (
    <Paper variant="outlined" data-testid="book-summary-table">
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1.5,
          px: { xs: 2, md: 3 },
          py: 1.5,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Typography sx={{ fontWeight: 600 }}>
          {t('bookSummary.screen.bookYear', { book: summary.book.descr, year: summary.book.year })}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('bookSummary.range', { from: formatDate(summary.from), to: formatDate(summary.to) })}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <Chip
          size="small"
          label={t('bookSummary.screen.count', { count: entries.length })}
          data-testid="book-summary-count"
        />
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      {entries.length === 0 ? (
        <Typography
          color="text.secondary"
          sx={{ px: { xs: 2, md: 3 }, py: 4, textAlign: 'center' }}
          data-testid="book-summary-empty"
        >
          {t('bookSummary.empty')}
        </Typography>
      ) : (
        <TableContainer sx={{ maxHeight: 'calc(100vh - 330px)' }}>
          <Table
            size="small"
            stickyHeader
            sx={{
              '& td, & th': { px: 1.25 },
              '& td:first-of-type, & th:first-of-type': { pl: { xs: 2, md: 3 } },
            }}
          >
            <TableHead>
              <TableRow>
                {head('protocolId', { pl: { xs: 2, md: 3 } })}
                {head('protocolDate')}
                {head('kind')}
                {head('correspondents')}
                {head('subject')}
                {head('protocolIdSender', { whiteSpace: 'normal', minWidth: 100 })}
                {head('charge')}
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map((entry) => (
                <TableRow
                  key={entry.documentId}
                  hover
                  data-testid={`book-summary-entry-${entry.protocolNumber}`}
                >
                  <TableCell sx={{ pl: { xs: 2, md: 3 }, fontWeight: 600, whiteSpace: 'nowrap' }}>
                    <Link
                      component={RouterLink}
                      to={localize(`/document/${entry.documentId}/edit`)}
                      underline="hover"
                    >
                      {entry.protocolId}
                    </Link>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.protocolDate)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={entry.kind === 0 ? 'primary' : 'secondary'}
                      label={t(`documents.kind.${entry.kind}`)}
                    />
                  </TableCell>
                  <TableCell sx={{ minWidth: 150 }}>{entry.correspondents ?? ''}</TableCell>
                  <TableCell sx={{ minWidth: 220 }}>{entry.subject}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {entry.protocolIdSender ?? ''}
                    {entry.protocolSendDate && (
                      <Typography component="div" variant="caption" color="text.secondary">
                        {entry.protocolIdSender
                          ? t('bookSummary.screen.senderDate', { date: formatDate(entry.protocolSendDate) })
                          : formatDate(entry.protocolSendDate)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ minWidth: 110 }}>{entry.charge ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
}
