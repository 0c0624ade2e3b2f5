import ArchiveOutlinedIcon from '@mui/icons-material/ArchiveOutlined';
import AssignmentIndOutlinedIcon from '@mui/icons-material/AssignmentIndOutlined';
import ContentCopyOutlinedIcon from '@mui/icons-material/ContentCopyOutlined';
import CreateNewFolderOutlinedIcon from '@mui/icons-material/CreateNewFolderOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DrawOutlinedIcon from '@mui/icons-material/DrawOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import RefreshIcon from '@mui/icons-material/Refresh';
import ReplyOutlinedIcon from '@mui/icons-material/ReplyOutlined';
import RestoreOutlinedIcon from '@mui/icons-material/RestoreOutlined';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import ShareOutlinedIcon from '@mui/icons-material/ShareOutlined';
import SwapHorizOutlinedIcon from '@mui/icons-material/SwapHorizOutlined';
import UndoOutlinedIcon from '@mui/icons-material/UndoOutlined';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { ActionDialog, type DialogAction } from './actionDialogs/ActionDialog.tsx';
import { documentKey, documentsApi, documentsKey } from './api.ts';
import { HistoryDialog } from './HistoryDialog.tsx';
import {
  type DocumentActionAvailability,
  type DocumentActionName,
  type DocumentActionRequest,
  type DocumentActionResult,
  documentActionName,
  documentActions,
  type HistoryEntry,
  type ProtocolDocument,
} from './model.ts';

export const ACTION_ICONS: Record<DocumentActionName, ReactNode> = {
  edit: <EditOutlinedIcon fontSize="small" />,
  send: <SendOutlinedIcon fontSize="small" />,
  charge: <AssignmentIndOutlinedIcon fontSize="small" />,
  share: <ShareOutlinedIcon fontSize="small" />,
  return: <UndoOutlinedIcon fontSize="small" />,
  history: <HistoryOutlinedIcon fontSize="small" />,
  archive: <ArchiveOutlinedIcon fontSize="small" />,
  restore: <RestoreOutlinedIcon fontSize="small" />,
  sign: <DrawOutlinedIcon fontSize="small" />,
  convertToOutgoing: <ReplyOutlinedIcon fontSize="small" />,
  createCase: <CreateNewFolderOutlinedIcon fontSize="small" />,
  fileTransfer: <SwapHorizOutlinedIcon fontSize="small" />,
  clone: <ContentCopyOutlinedIcon fontSize="small" />,
  delete: <DeleteOutlineIcon fontSize="small" />,
};

/** The menu's order: the daily work first, the document's lifecycle last. */
const MENU_ORDER: DocumentActionName[] = [
  'edit',
  'charge',
  'share',
  'return',
  'sign',
  'send',
  'convertToOutgoing',
  'createCase',
  'fileTransfer',
  'clone',
  'history',
  'archive',
  'restore',
  'delete',
];

/** The translated reason an action is not available now (the server's catalog key). */
export function reasonText(t: TFunction, action: DocumentActionAvailability): string {
  if (!action.reasonKey) return t('docs.actions.notAllowed');
  return t(action.reasonKey, { defaultValue: t('docs.actions.notAllowed') });
}

/** Every action in menu order, with the document's answer when it has one (else not allowed). */
export function actionsOf(
  document: ProtocolDocument,
): (DocumentActionAvailability & { key: DocumentActionName })[] {
  return MENU_ORDER.map((key) => {
    const id = documentActions[key];
    const found = document.actions.find((action) => action.id === id || action.name === key);
    return { key, ...(found ?? { id, name: key, allowed: false, reasonKey: null }) };
  });
}

/** Runs an action on one document and brings the page up to date with the answer. */
export function useDocumentAction(document: ProtocolDocument) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const localize = useLocalize();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: Omit<DocumentActionRequest, 'document'>) =>
      documentsApi.action({ ...request, document: { id: document.id } }),
    onSuccess: (result: DocumentActionResult, request) => {
      const name = documentActionName(request.actionType.id);
      if (result.document) queryClient.setQueryData(documentKey(document.id), result.document);
      void queryClient.invalidateQueries({ queryKey: documentsKey, exact: false, refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: ['list'], exact: false, refetchType: 'none' });
      const done = name === 'send' && request.sendMethod === 'email' ? 'sendEmail' : name;
      if (name && name !== 'history' && name !== 'edit') notify(t(`docs.actions.done.${done}`), 'success');
      if ((name === 'clone' || name === 'convertToOutgoing') && result.createdDocumentId) {
        navigate(localize(`/document/${result.createdDocumentId}/edit`));
      }
    },
  });
}

/**
 * The document's action menu (spec §3 'Document actions'): all fourteen, the allowed ones enabled,
 * the others disabled with the reason in a tooltip, then 'Refresh' (the page's only actions menu).
 * Items carry `action-<name>`.
 */
export function DocumentActionsMenu({
  document,
  onEdit,
  onRefresh,
}: {
  document: ProtocolDocument;
  /** 'Edit' brings the operator to the form. */
  onEdit: () => void;
  /** Reloads the document as it is now. */
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<DialogAction | null>(null);
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const run = useDocumentAction(document);

  const simple = async (name: 'archive' | 'restore' | 'delete' | 'clone' | 'convertToOutgoing') => {
    const prefix = name === 'convertToOutgoing' ? 'convert' : name;
    const ok = await confirm({
      title: t(`docs.actions.confirm.${prefix}Title`),
      message: t(`docs.actions.confirm.${prefix}Message`),
      confirmLabel: t(`docs.actions.name.${name}`),
      danger: name === 'delete',
    });
    if (ok) run.mutate({ actionType: { id: documentActions[name] } });
  };

  const choose = (name: DocumentActionName) => {
    setAnchor(null);
    switch (name) {
      case 'edit':
        onEdit();
        return;
      case 'history':
        run.mutate(
          { actionType: { id: documentActions.history } },
          { onSuccess: (result) => setHistory(result.history ?? []) },
        );
        return;
      case 'archive':
      case 'restore':
      case 'delete':
      case 'clone':
      case 'convertToOutgoing':
        void simple(name);
        return;
      default:
        setDialog(name);
    }
  };

  const items = actionsOf(document);
  return (
    <>
      <Button
        variant="contained"
        endIcon={<KeyboardArrowDownIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
        loading={run.isPending}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        data-testid="document-actions"
      >
        {t('docs.actions.menu')}
      </Button>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 260 } }, list: { dense: true } }}
        data-testid="document-actions-menu"
      >
        {items.map((action) => {
          const item = (
            <MenuItem
              key={action.key}
              disabled={!action.allowed}
              onClick={() => choose(action.key)}
              data-testid={`action-${action.key}`}
              data-allowed={action.allowed ? 'true' : 'false'}
              divider={action.key === 'history'}
            >
              <ListItemIcon>{ACTION_ICONS[action.key]}</ListItemIcon>
              <ListItemText>{t(`docs.actions.name.${action.key}`)}</ListItemText>
            </MenuItem>
          );
          if (action.allowed) return item;
          // A disabled item takes no pointer events: the tooltip hangs on its wrapper.
          return (
            <Tooltip key={action.key} title={reasonText(t, action)} placement="left">
              <div data-testid={`action-${action.key}-reason`} data-reason={action.reasonKey ?? ''}>
                {item}
              </div>
            </Tooltip>
          );
        })}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onRefresh();
          }}
          data-testid="document-refresh"
        >
          <ListItemIcon>
            <RefreshIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('docs.form.refresh')}</ListItemText>
        </MenuItem>
      </Menu>
      {dialog && (
        <ActionDialog
          action={dialog}
          document={document}
          pending={run.isPending}
          onClose={() => setDialog(null)}
          onRun={(request) =>
            run.mutate(request, {
              onSuccess: () => setDialog(null),
            })
          }
        />
      )}
      {history && (
        <HistoryDialog
          entries={history}
          title={`${document.protocolId ?? t('docs.form.unregistered')} · ${document.subject}`}
          onClose={() => setHistory(null)}
        />
      )}
      {confirmDialog}
    </>
  );
}
