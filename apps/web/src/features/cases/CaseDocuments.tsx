import AddIcon from '@mui/icons-material/Add';
import LinkOffOutlinedIcon from '@mui/icons-material/LinkOffOutlined';
import OpenInNewOutlinedIcon from '@mui/icons-material/OpenInNewOutlined';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { DocumentListItem } from '@protocol/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useLocalize } from '../../lib/language.tsx';
import { casesApi } from './api.ts';

/** A document of the case as the table shows it (saved links, or picked ones before a new case is saved). */
export interface CaseDocumentRow {
  id: number;
  kind: number;
  protocolId: string | null;
  protocolDate: string | null;
  subject: string;
  correspondents: string | null;
  addedAt: string | null;
}

export const fromListItem = (item: DocumentListItem): CaseDocumentRow => ({
  id: item.id,
  kind: item.kind,
  protocolId: item.protocolId,
  protocolDate: item.protocolDate,
  subject: item.subject,
  correspondents: item.correspondents,
  addedAt: null,
});

export function KindChip({ kind }: { kind: number }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={kind === 0 ? 'primary' : 'secondary'}
      label={t(`cases.kind.${kind}`)}
      sx={{ fontWeight: 500 }}
    />
  );
}

interface Props {
  documents: CaseDocumentRow[];
  writable: boolean;
  busy: boolean;
  /** Shown under the title (e.g. that picked documents are linked on save). */
  hint?: string;
  onAdd: (picked: DocumentListItem[]) => void;
  onRemove: (document: CaseDocumentRow) => void;
}

/** The documents of a case: a table with open and remove per row, and an add dialog that searches documents. */
export function CaseDocuments({ documents, writable, busy, hint, onAdd, onRemove }: Props) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const [picking, setPicking] = useState(false);
  return (
    <Paper variant="outlined" data-testid="case-documents">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, px: { xs: 2, md: 3 }, pt: 2.5, pb: 1.5 }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h2" sx={{ fontSize: '1.05rem' }}>
            {t('cases.documents.title')}{' '}
            <Typography component="span" color="text.secondary" sx={{ fontSize: '0.95rem' }}>
              ({documents.length})
            </Typography>
          </Typography>
          {hint && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {hint}
            </Typography>
          )}
        </Box>
        {writable && (
          <Button
            variant="outlined"
            startIcon={<AddIcon />}
            onClick={() => setPicking(true)}
            disabled={busy}
            data-testid="case-documents-add"
          >
            {t('cases.documents.add')}
          </Button>
        )}
      </Box>
      {busy && <LinearProgress />}
      {documents.length === 0 ? (
        <Typography
          color="text.secondary"
          sx={{ px: { xs: 2, md: 3 }, pb: 3, pt: 1 }}
          data-testid="case-documents-empty"
        >
          {t('cases.documents.empty')}
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell sx={{ pl: { xs: 2, md: 3 }, whiteSpace: 'nowrap' }}>
                  {t('cases.documents.protocolId')}
                </TableCell>
                <TableCell>{t('cases.documents.kind')}</TableCell>
                <TableCell sx={{ width: '100%' }}>{t('cases.documents.subject')}</TableCell>
                <TableCell align="right" sx={{ pr: { xs: 1, md: 2 } }} />
              </TableRow>
            </TableHead>
            <TableBody>
              {documents.map((document) => (
                <TableRow key={document.id} hover data-testid={`case-document-${document.id}`}>
                  <TableCell sx={{ pl: { xs: 2, md: 3 }, whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                    {document.protocolId ? (
                      <Box sx={{ fontWeight: 600 }}>{document.protocolId}</Box>
                    ) : (
                      <Typography
                        component="div"
                        variant="body2"
                        color="text.secondary"
                        sx={{ fontStyle: 'italic' }}
                      >
                        {t('cases.documents.unregistered')}
                      </Typography>
                    )}
                    <Typography component="div" variant="caption" color="text.secondary">
                      {formatDateTime(document.protocolDate)}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <KindChip kind={document.kind} />
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <Link
                      component={RouterLink}
                      to={localize(`/document/${document.id}/edit`)}
                      underline="hover"
                      data-testid={`case-document-link-${document.id}`}
                    >
                      {document.subject}
                    </Link>
                    {document.correspondents && (
                      <Typography component="div" variant="caption" color="text.secondary">
                        {document.correspondents}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell
                    align="right"
                    sx={{ whiteSpace: 'nowrap', pr: { xs: 1, md: 2 }, verticalAlign: 'top' }}
                  >
                    <Tooltip title={t('cases.documents.open')}>
                      <IconButton
                        size="small"
                        component={RouterLink}
                        to={localize(`/document/${document.id}/edit`)}
                        aria-label={t('cases.documents.open')}
                        data-testid={`case-document-open-${document.id}`}
                      >
                        <OpenInNewOutlinedIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {writable && (
                      <Tooltip title={t('cases.documents.remove')}>
                        <span>
                          <IconButton
                            size="small"
                            onClick={() => onRemove(document)}
                            disabled={busy}
                            aria-label={t('cases.documents.remove')}
                            data-testid={`case-document-remove-${document.id}`}
                          >
                            <LinkOffOutlinedIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {picking && (
        <DocumentPicker
          linked={new Set(documents.map((document) => document.id))}
          onClose={() => setPicking(false)}
          onPick={(picked) => {
            setPicking(false);
            onAdd(picked);
          }}
        />
      )}
    </Paper>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Searches the documents the operator sees (GET /api/document/search) and picks several. */
function DocumentPicker({
  linked,
  onClose,
  onPick,
}: {
  linked: Set<number>;
  onClose: () => void;
  onPick: (documents: DocumentListItem[]) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 300);
  const [picked, setPicked] = useState<Map<number, DocumentListItem>>(new Map());
  const query = useQuery({
    queryKey: ['cases', 'documentSearch', search],
    queryFn: ({ signal }) => casesApi.searchDocuments(search, signal),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
  const toggle = (document: DocumentListItem) =>
    setPicked((current) => {
      const next = new Map(current);
      if (next.has(document.id)) next.delete(document.id);
      else next.set(document.id, document);
      return next;
    });
  const results = search ? (query.data?.content ?? []) : [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="case-document-picker">
      <DialogTitle>{t('cases.picker.title')}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 360 }}>
        <TextField
          autoFocus
          fullWidth
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={t('cases.picker.search')}
          slotProps={{
            htmlInput: { 'data-testid': 'case-document-search', 'aria-label': t('cases.picker.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ height: 4, mt: 1 }}>{query.isFetching && <LinearProgress />}</Box>
        {query.error ? (
          <RetryAlert error={query.error} onRetry={() => void query.refetch()} />
        ) : !search ? (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            {t('cases.picker.typeToSearch')}
          </Typography>
        ) : results.length === 0 && !query.isFetching ? (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="case-document-search-empty">
            {t('cases.picker.noResults')}
          </Alert>
        ) : (
          <List dense>
            {results.map((document) => {
              const already = linked.has(document.id);
              return (
                <ListItemButton
                  key={document.id}
                  disabled={already}
                  onClick={() => toggle(document)}
                  data-testid={`case-document-result-${document.id}`}
                  sx={{ borderRadius: 1 }}
                >
                  <ListItemIcon sx={{ minWidth: 40 }}>
                    <Checkbox
                      edge="start"
                      checked={already || picked.has(document.id)}
                      tabIndex={-1}
                      disableRipple
                    />
                  </ListItemIcon>
                  <ListItemText
                    primary={
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                        <Box component="span" sx={{ fontWeight: 600 }}>
                          {document.protocolId ?? t('cases.documents.unregistered')}
                        </Box>
                        <KindChip kind={document.kind} />
                        <span>{document.subject}</span>
                      </Box>
                    }
                    secondary={[
                      document.correspondents,
                      formatDate(document.protocolDate),
                      already ? t('cases.picker.already') : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  />
                </ListItemButton>
              );
            })}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose}>
          {t('cases.picker.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={picked.size === 0}
          onClick={() => onPick([...picked.values()])}
          data-testid="case-document-pick"
        >
          {t('cases.picker.add', { count: picked.size })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
