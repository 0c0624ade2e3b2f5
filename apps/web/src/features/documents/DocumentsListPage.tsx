import './i18n/index.ts';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import MoveToInboxOutlinedIcon from '@mui/icons-material/MoveToInboxOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { stripLang } from '../../lib/lang.ts';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { ActionDialog } from './actionDialogs/ActionDialog.tsx';
import { DOCUMENTS_META_URL, documentsApi, documentsKey, LIST_SEARCH_URL } from './api.ts';
import { ACTION_ICONS } from './DocumentActions.tsx';
import {
  type DocumentActionRequest,
  type DocumentListItem,
  type DocumentListVariant,
  documentActions,
  documentsCatalog,
  formatProtocolId,
} from './model.ts';

type DocumentRow = DocumentListItem & Record<string, unknown>;
type BulkAction = 'charge' | 'share' | 'archive' | 'restore' | 'delete';
/** Bulk actions that ask for an assignee and comments first. */
const isDialogAction = (action: BulkAction): action is 'charge' | 'share' =>
  action === 'charge' || action === 'share';

interface VariantInfo {
  titleKey: string;
  subtitleKey: string;
  icon: ReactNode;
  /** The kind a new document gets from this list; null: no create button. */
  createKind: 0 | 1 | null;
  bulk: BulkAction[];
}

/** In the inbox and the outbox every row has the same kind: its column starts hidden there. */
const singleKindCatalog = {
  ...documentsCatalog,
  fields: documentsCatalog.fields.map((field) =>
    field.id === 'kind' ? { ...field, hiddenByDefault: true } : field,
  ),
};

const VARIANTS: Record<DocumentListVariant, VariantInfo> = {
  inbox: {
    titleKey: 'documents.inboxTitle',
    subtitleKey: 'docs.list.inboxSubtitle',
    icon: <MoveToInboxOutlinedIcon />,
    createKind: 0,
    bulk: ['charge', 'share', 'archive', 'delete'],
  },
  outbox: {
    titleKey: 'documents.outboxTitle',
    subtitleKey: 'docs.list.outboxSubtitle',
    icon: <OutboxOutlinedIcon />,
    createKind: 1,
    bulk: ['charge', 'share', 'archive', 'delete'],
  },
  all: {
    titleKey: 'documents.title',
    subtitleKey: 'docs.list.allSubtitle',
    icon: <DescriptionOutlinedIcon />,
    createKind: 0,
    bulk: ['charge', 'share', 'archive', 'delete'],
  },
  archived: {
    titleKey: 'documents.archivedTitle',
    subtitleKey: 'docs.list.archivedSubtitle',
    icon: <Inventory2OutlinedIcon />,
    createKind: null,
    bulk: ['restore'],
  },
  deleted: {
    titleKey: 'documents.deletedTitle',
    subtitleKey: 'docs.list.deletedSubtitle',
    icon: <DeleteOutlineIcon />,
    createKind: null,
    bulk: ['restore'],
  },
};

/** Which list a path shows: /inbox, /outbox, /document, /document/archived, /document/deleted. */
export function variantOf(pathname: string): DocumentListVariant {
  const path = stripLang(pathname).replace(/\/+$/, '');
  if (path === '/inbox') return 'inbox';
  if (path === '/outbox') return 'outbox';
  if (path === '/document/archived') return 'archived';
  if (path === '/document/deleted') return 'deleted';
  return 'all';
}

export function documentLabel(
  row: Pick<DocumentListItem, 'protocolId' | 'protocolNumber' | 'protocolYear' | 'subject' | 'id'>,
) {
  const number = row.protocolId ?? formatProtocolId(row.protocolNumber, row.protocolYear);
  return number ? `${number} · ${row.subject}` : `#${row.id} · ${row.subject}`;
}

interface Outcome {
  row: DocumentRow;
  ok: boolean;
  message: string | null;
}

/** The result of a bulk action, document by document. */
function SummaryDialog({
  action,
  outcomes,
  onClose,
}: {
  action: string;
  outcomes: Outcome[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      data-testid="bulk-summary"
    >
      <DialogTitle id={titleId}>{t('docs.list.bulkSummaryTitle', { action })}</DialogTitle>
      <DialogContent dividers>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {outcomes.map((outcome) => (
            <Box
              component="li"
              key={outcome.row.id}
              data-testid={`bulk-outcome-${outcome.row.id}`}
              data-ok={outcome.ok ? 'true' : 'false'}
              sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}
            >
              <Chip
                size="small"
                color={outcome.ok ? 'success' : 'error'}
                label={outcome.ok ? t('docs.list.bulkOk') : t('docs.list.bulkRefused')}
                sx={{ minWidth: 104 }}
              />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" noWrap>
                  {documentLabel(outcome.row)}
                </Typography>
                {outcome.message && (
                  <Typography variant="caption" color="error">
                    {outcome.message}
                  </Typography>
                )}
              </Box>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="bulk-summary-close">
          {t('docs.list.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * /inbox, /outbox, /document and the archived and deleted documents (spec §2): the DataTable over
 * the documents catalog, with charge, share, archive, restore and delete on the selected rows.
 */
export default function DocumentsListPage() {
  const location = useLocation();
  const variant = variantOf(location.pathname);
  return <DocumentsList key={variant} variant={variant} />;
}

const TAB_PATHS: Record<DocumentListVariant, string> = {
  inbox: '/inbox',
  outbox: '/outbox',
  all: '/document',
  archived: '/document/archived',
  deleted: '/document/deleted',
};

function DocumentsList({ variant }: { variant: DocumentListVariant }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const info = VARIANTS[variant];
  const title = t(info.titleKey);
  useAppBar({ title });
  const [selected, setSelected] = useState<DocumentRow[]>([]);
  const [reload, setReload] = useState(0);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [running, setRunning] = useState(false);
  const [summary, setSummary] = useState<{ action: string; outcomes: Outcome[] } | null>(null);
  const [dialog, setDialog] = useState<'charge' | 'share' | null>(null);

  const createKind = info.createKind;
  const onCreate = useCallback(
    () => navigate(localize(`/document/create?kind=${createKind ?? 0}`)),
    [navigate, localize, createKind],
  );
  const onRowClick = useCallback(
    (row: DocumentRow) => navigate(localize(`/document/${row.id}/edit`)),
    [navigate, localize],
  );
  const writer = can('protocol:write');

  const chooseBulk = async (action: BulkAction) => {
    setAnchor(null);
    if (isDialogAction(action)) {
      setDialog(action);
      return;
    }
    const label = t(`docs.actions.name.${action}`);
    const ok = await confirm({
      title: t('docs.list.bulkConfirmTitle', { action: label, count: selected.length }),
      message: t('docs.list.bulkConfirmMessage'),
      confirmLabel: label,
      danger: action === 'delete',
    });
    if (ok) await runBulk(action, { actionType: { id: documentActions[action] } });
  };

  const runBulk = async (action: BulkAction, request: Omit<DocumentActionRequest, 'document'>) => {
    const rows = selected;
    const label = t(`docs.actions.name.${action}`);
    setRunning(true);
    const outcomes: Outcome[] = [];
    // One at a time: each is its own transaction, and the server keeps the order.
    for (const row of rows) {
      try {
        await documentsApi.action({ ...request, document: { id: row.id } });
        outcomes.push({ row, ok: true, message: null });
      } catch (failure) {
        outcomes.push({ row, ok: false, message: errorMessage(t, failure) });
      }
    }
    setRunning(false);
    setDialog(null);
    const done = outcomes.filter((outcome) => outcome.ok).length;
    const refused = outcomes.length - done;
    notify(
      t('docs.list.bulkDone', { action: label, ok: done, refused }),
      refused > 0 ? 'warning' : 'success',
    );
    if (refused > 0) setSummary({ action: label, outcomes });
    void queryClient.invalidateQueries({ queryKey: documentsKey, exact: false });
    void queryClient.invalidateQueries({ queryKey: ['list'], exact: false });
    setSelected([]);
    setReload((value) => value + 1);
  };

  return (
    <>
      <PageHeader
        title={title}
        subtitle={t(info.subtitleKey)}
        avatar={info.icon}
        testId="documents-header"
        tabs={(Object.keys(TAB_PATHS) as DocumentListVariant[]).map((value) => ({
          value,
          label: t(`docs.list.views.${value}`),
        }))}
        tab={variant}
        onTabChange={(value) => navigate(localize(TAB_PATHS[value as DocumentListVariant]))}
        actions={
          writer && (
            <Tooltip title={selected.length > 0 ? '' : t('docs.list.bulkHint')}>
              <span>
                <Button
                  variant="outlined"
                  endIcon={<KeyboardArrowDownIcon />}
                  disabled={selected.length === 0}
                  loading={running}
                  onClick={(event) => setAnchor(event.currentTarget)}
                  data-testid="bulk-actions"
                >
                  {t('docs.list.bulkActions')}
                  {selected.length > 0 && ` (${selected.length})`}
                </Button>
              </span>
            </Tooltip>
          )
        }
      />
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        data-testid="bulk-actions-menu"
      >
        {info.bulk.map((action) => (
          <MenuItem
            key={action}
            onClick={() => void chooseBulk(action)}
            data-testid={`bulk-action-${action}`}
          >
            <ListItemIcon>{ACTION_ICONS[action]}</ListItemIcon>
            <ListItemText>{t(`docs.actions.name.${action}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
      <DataTable<DocumentRow>
        key={reload}
        catalog={createKind === null ? documentsCatalog : singleKindCatalog}
        searchUrl={LIST_SEARCH_URL[variant]}
        metaUrl={DOCUMENTS_META_URL}
        metaKey={`documents.${variant}.list`}
        title={title}
        onCreate={writer && createKind !== null ? onCreate : undefined}
        onRowClick={onRowClick}
        rowLabel={documentLabel}
        rowSecondary={(row) => row.correspondents ?? ''}
        onSelectionChange={setSelected}
      />
      {dialog && (
        <ActionDialog
          action={dialog}
          count={selected.length}
          pending={running}
          onClose={() => setDialog(null)}
          onRun={(request) => void runBulk(dialog, request)}
        />
      )}
      {summary && (
        <SummaryDialog action={summary.action} outcomes={summary.outcomes} onClose={() => setSummary(null)} />
      )}
      {confirmDialog}
    </>
  );
}
