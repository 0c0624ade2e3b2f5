import './i18n/index.ts';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import ListAltOutlinedIcon from '@mui/icons-material/ListAltOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { EntityCatalog, Page } from '@protocol/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { useAppBarAside } from '../../lib/appBarContext.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useLocalize } from '../../lib/language.tsx';
import { APP_BAR_HEIGHT, TOP_BAR_HEIGHT } from '../../lib/theme.ts';
import { formatValue, type Row } from './cells.tsx';
import { type ListMemory, recallList } from './listMemory.ts';
import { apiParams, defaultColumns, defaultQuery, fieldOf, withQuery } from './state.ts';

/** Spec §2/§9: the aside panel is 325 px wide, on the right; the record list at least 250 px. */
export const ASIDE_PANEL_WIDTH = 325;

export interface FastSwitchOptions {
  /** The entity whose list was last shown, e.g. 'users' (the DataTable's catalog.entity). */
  entity: string;
  catalog: EntityCatalog;
  /** The edit page of a record (language-neutral), e.g. id => `/users/${id}/edit`. */
  editPath: (id: Row['id']) => string;
  /** The record shown; default the route's `:id`. */
  currentId?: string | number;
  /** The search endpoint when no list was visited in this tab; default `/api/<entity>/search`. */
  searchUrl?: string;
  /** A record's primary and secondary text; default the first visible columns of the list. */
  primary?: (row: Row) => string;
  secondary?: (row: Row) => string;
}

/**
 * The edit pages' fast switch: one line in the page puts a button in the app bar that opens the
 * record list (the list the user came from: same view, filters and sort) in a 325 px aside panel.
 *
 *   useFastSwitch({ entity: 'users', catalog: usersCatalog, editPath: (id) => `/users/${id}/edit` });
 */
export function useFastSwitch(options: FastSwitchOptions): void {
  const params = useParams();
  const currentId = String(options.currentId ?? params.id ?? '');
  const latest = useRef(options);
  latest.current = options;
  const { entity, catalog } = options;
  const node = useMemo(
    () => (
      <FastSwitch key={entity} entity={entity} catalog={catalog} currentId={currentId} options={latest} />
    ),
    [entity, catalog, currentId],
  );
  useAppBarAside(node);
}

function fallbackMemory(options: FastSwitchOptions, title: string): ListMemory {
  const searchUrl = options.searchUrl ?? `/api/${options.entity}/search`;
  return {
    searchUrl,
    query: apiParams(defaultQuery(options.catalog)).toString(),
    columns: defaultColumns(options.catalog)
      .filter((column) => column.visible)
      .map((column) => column.id),
    listPath: `/${options.entity}`,
    title,
  };
}

function FastSwitch({
  entity,
  catalog,
  currentId,
  options,
}: {
  entity: string;
  catalog: EntityCatalog;
  currentId: string;
  options: { current: FastSwitchOptions };
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <>
      <Tooltip title={t('table.fastSwitch.tooltip')}>
        <IconButton
          size="small"
          data-testid="fast-switch-button"
          aria-label={t('table.fastSwitch.tooltip')}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          color={open ? 'primary' : 'default'}
          onClick={() => setOpen((value) => !value)}
        >
          <ListAltOutlinedIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Drawer
        anchor="right"
        variant="persistent"
        open={open}
        slotProps={{
          paper: {
            id: panelId,
            component: 'aside',
            'aria-label': t('table.fastSwitch.title'),
            'data-testid': 'fast-switch-panel',
            sx: (theme: { palette: { divider: string }; shadows: string[] }) => ({
              top: TOP_BAR_HEIGHT + APP_BAR_HEIGHT,
              height: `calc(100% - ${TOP_BAR_HEIGHT + APP_BAR_HEIGHT}px)`,
              width: ASIDE_PANEL_WIDTH,
              minWidth: 250,
              borderLeft: `1px solid ${theme.palette.divider}`,
              boxShadow: theme.shadows[6],
            }),
          } as object,
        }}
      >
        {open && (
          <RecordListPanel
            entity={entity}
            catalog={catalog}
            currentId={currentId}
            options={options.current}
            onClose={() => setOpen(false)}
          />
        )}
      </Drawer>
    </>
  );
}

export interface RecordListPanelProps {
  entity: string;
  catalog: EntityCatalog;
  currentId: string;
  options: FastSwitchOptions;
  onClose?: () => void;
}

/** The records of the remembered list (sessionStorage, per entity), the current one highlighted. */
export function RecordListPanel({ entity, catalog, currentId, options, onClose }: RecordListPanelProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const memory = useMemo(
    () => recallList(entity) ?? fallbackMemory(options, t(catalog.titleKey)),
    [entity, options, catalog, t],
  );
  const base = useMemo(() => new URLSearchParams(memory.query), [memory]);
  const initialPage = Number.parseInt(base.get('page') ?? '0', 10) || 0;
  const [page, setPage] = useState(initialPage);
  const size = Number.parseInt(base.get('size') ?? '50', 10) || 50;
  const params = new URLSearchParams(base);
  params.set('page', String(page));
  const queryString = params.toString();
  const list = useQuery({
    queryKey: ['list', memory.searchUrl, queryString],
    queryFn: ({ signal }) => api.get<Page<Row>>(withQuery(memory.searchUrl, queryString), { signal }),
    placeholderData: keepPreviousData,
  });

  // The record's name: the list's visible columns, without its technical id.
  const shown = memory.columns
    .filter((id) => id !== 'id')
    .map((id) => fieldOf(catalog, id))
    .filter((field) => field !== undefined);
  const primary =
    options.primary ??
    ((row: Row) =>
      shown
        .slice(0, 2)
        .map((field) => formatValue(t, field, row[field.id]))
        .filter(Boolean)
        .join(' '));
  const secondary =
    options.secondary ??
    ((row: Row) =>
      shown
        .slice(2, 4)
        .map((field) => formatValue(t, field, row[field.id]))
        .filter(Boolean)
        .join(' · '));

  const currentRef = useRef<HTMLDivElement | null>(null);
  const rows = list.data?.content ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the rows arrive
  useEffect(() => {
    currentRef.current?.scrollIntoView({ block: 'nearest' });
  }, [rows]);

  const totalPages = list.data?.totalPages ?? 0;
  const total = list.data?.totalElements ?? 0;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 250 }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          pl: 2,
          pr: 1,
          py: 1,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {memory.title || t(catalog.titleKey)}
          </Typography>
          <Typography variant="caption" color="text.secondary" data-testid="fast-switch-total">
            {list.data?.totalEstimated
              ? t('table.totalAbout', { count: total })
              : t('table.total', { count: total })}
          </Typography>
        </Box>
        <Button
          size="small"
          onClick={() => navigate(localize(memory.listPath))}
          data-testid="fast-switch-back"
          sx={{ flexShrink: 0 }}
        >
          {t('table.fastSwitch.backToList')}
        </Button>
        {onClose && (
          <IconButton
            size="small"
            aria-label={t('common.close')}
            onClick={onClose}
            data-testid="fast-switch-close"
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        )}
      </Box>
      <Box sx={{ position: 'relative', flexGrow: 1, overflowY: 'auto' }}>
        {list.isFetching && (
          <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2, zIndex: 1 }} />
        )}
        {list.isError && (
          <Alert severity="error" sx={{ m: 1.5 }}>
            {errorMessage(t, list.error)}
          </Alert>
        )}
        {list.isPending && (
          <Box sx={{ px: 2, py: 1 }}>
            {[0, 1, 2, 3, 4, 5].map((index) => (
              <Skeleton key={index} height={44} />
            ))}
          </Box>
        )}
        <List dense disablePadding aria-label={memory.title || t(catalog.titleKey)}>
          {rows.map((row) => {
            const current = String(row.id) === currentId;
            return (
              <ListItemButton
                key={row.id}
                ref={current ? currentRef : undefined}
                selected={current}
                aria-current={current ? 'page' : undefined}
                data-testid="fast-switch-item"
                data-id={row.id}
                divider
                onClick={() => {
                  if (!current) navigate(localize(options.editPath(row.id)));
                }}
                sx={{
                  borderLeft: 3,
                  borderLeftColor: current ? 'primary.main' : 'transparent',
                }}
              >
                <ListItemText
                  primary={primary(row) || String(row.id)}
                  secondary={secondary(row) || undefined}
                  slotProps={{
                    primary: { noWrap: true, sx: { fontWeight: current ? 600 : 400 } },
                    secondary: { noWrap: true },
                  }}
                />
              </ListItemButton>
            );
          })}
        </List>
        {list.isSuccess && rows.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {t('table.empty')}
          </Typography>
        )}
      </Box>
      {size !== -1 && totalPages > 1 && (
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            px: 1,
            py: 0.5,
            borderTop: 1,
            borderColor: 'divider',
          }}
        >
          <IconButton
            size="small"
            aria-label={t('table.previousPage')}
            disabled={page === 0}
            onClick={() => setPage(page - 1)}
            data-testid="fast-switch-prev"
          >
            <ChevronLeftIcon fontSize="small" />
          </IconButton>
          <Typography variant="caption" color="text.secondary">
            {t('table.fastSwitch.page', { page: page + 1, pages: totalPages })}
          </Typography>
          <IconButton
            size="small"
            aria-label={t('table.nextPage')}
            disabled={page >= totalPages - 1}
            onClick={() => setPage(page + 1)}
            data-testid="fast-switch-next"
          >
            <ChevronRightIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
    </Box>
  );
}
