import BookmarkAddOutlinedIcon from '@mui/icons-material/BookmarkAddOutlined';
import CheckIcon from '@mui/icons-material/Check';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import PublicIcon from '@mui/icons-material/Public';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import TableViewOutlinedIcon from '@mui/icons-material/TableViewOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { darken } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { useMenuButton } from '../useMenuButton.ts';
import { viewTitle } from './state.ts';
import type { SavedView } from './useTableViews.ts';

export interface ViewsMenuProps {
  views: SavedView[];
  /** The view the table shows. */
  current: SavedView | undefined;
  modified: boolean;
  isAdmin: boolean;
  busy: boolean;
  onChoose: (view: SavedView) => void;
  onSaveCurrent: () => void;
  onSaveNew: (title: string, global: boolean) => Promise<unknown>;
  onReset: (view: SavedView) => void;
  onDelete: (view: SavedView) => Promise<unknown>;
}

/** Saved views (spec §4): choose, create, reset, delete; a 'modified' marker with save offers. */
export function ViewsMenu({
  views,
  current,
  modified,
  isAdmin,
  busy,
  onChoose,
  onSaveCurrent,
  onSaveNew,
  onReset,
  onDelete,
}: ViewsMenuProps) {
  const { t } = useTranslation();
  const titleOf = (title: string) => viewTitle(t, title);
  const buttonId = useId();
  const { buttonProps, menuProps, close } = useMenuButton();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Non-admins may only choose a global view, not change or delete it.
  const locked = current !== undefined && current.row.global === 1 && !isAdmin;

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
      <Button
        id={buttonId}
        size="small"
        variant="outlined"
        color="inherit"
        data-testid="views-button"
        {...buttonProps}
        startIcon={<TableViewOutlinedIcon fontSize="small" />}
        endIcon={<ExpandMoreIcon fontSize="small" />}
        sx={{ borderColor: 'divider', textTransform: 'none', fontWeight: 500, maxWidth: 320 }}
      >
        <Box component="span" sx={{ color: 'text.secondary', mr: 0.5 }}>
          {t('views.label')}:{' '}
        </Box>
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {current ? titleOf(current.view.title) : t('common.loading')}
        </Box>
      </Button>
      {modified && (
        <>
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={t('views.modified')}
            data-testid="view-modified"
            // The light theme's warning orange is too pale for small text (axe color-contrast).
            sx={(theme) => ({
              fontWeight: 500,
              ...(theme.palette.mode === 'light' && { color: darken(theme.palette.warning.main, 0.3) }),
            })}
          />
          <Tooltip title={locked ? t('views.globalLocked') : t('views.saveCurrentHint')}>
            <span>
              <Button
                size="small"
                startIcon={<SaveOutlinedIcon fontSize="small" />}
                onClick={onSaveCurrent}
                disabled={locked || busy || !current}
                data-testid="view-save-current"
              >
                {t('views.saveCurrent')}
              </Button>
            </span>
          </Tooltip>
          <Button
            size="small"
            color="inherit"
            startIcon={<BookmarkAddOutlinedIcon fontSize="small" />}
            onClick={() => setCreating(true)}
            disabled={busy}
            data-testid="view-modified-save-new"
            sx={{ color: 'text.secondary' }}
          >
            {t('views.saveNew')}
          </Button>
        </>
      )}

      <Menu
        {...menuProps}
        slotProps={{
          list: { 'aria-labelledby': buttonId, dense: true } as object,
          paper: { sx: { minWidth: 280 } },
        }}
      >
        <ListSubheader sx={{ lineHeight: '36px' }}>{t('views.title')}</ListSubheader>
        {views.map((item) => {
          const selected = item.row.id === current?.row.id;
          return (
            <MenuItem
              key={item.row.id}
              selected={selected}
              data-testid="view-item"
              data-title={titleOf(item.view.title)}
              data-global={item.row.global}
              onClick={() => {
                close();
                onChoose(item);
              }}
            >
              <ListItemIcon>{selected ? <CheckIcon fontSize="small" color="primary" /> : null}</ListItemIcon>
              <ListItemText
                slotProps={{ primary: { noWrap: true, sx: { fontWeight: selected ? 600 : 400 } } }}
                sx={{ maxWidth: 240 }}
              >
                {titleOf(item.view.title)}
              </ListItemText>
              {item.row.global === 1 && (
                <Tooltip title={t('views.global')}>
                  <PublicIcon
                    fontSize="small"
                    sx={{ ml: 1, color: 'text.secondary' }}
                    aria-label={t('views.global')}
                  />
                </Tooltip>
              )}
            </MenuItem>
          );
        })}
        <Divider />
        <MenuItem
          data-testid="view-save-new"
          onClick={() => {
            close();
            setCreating(true);
          }}
        >
          <ListItemIcon>
            <BookmarkAddOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('views.saveNew')}</ListItemText>
        </MenuItem>
        <MenuItem
          data-testid="view-reset"
          disabled={locked || !current}
          onClick={() => {
            close();
            if (current) onReset(current);
          }}
        >
          <ListItemIcon>
            <RestartAltIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText secondary={locked ? t('views.globalLocked') : undefined}>
            {t('views.reset')}
          </ListItemText>
        </MenuItem>
        <MenuItem
          data-testid="view-delete"
          disabled={locked || !current}
          onClick={() => {
            close();
            setDeleting(true);
          }}
          sx={{ color: locked ? undefined : 'error.main' }}
        >
          <ListItemIcon>
            <DeleteOutlineIcon fontSize="small" color={locked ? undefined : 'error'} />
          </ListItemIcon>
          <ListItemText>{t('views.delete')}</ListItemText>
        </MenuItem>
      </Menu>

      <SaveViewDialog
        open={creating}
        isAdmin={isAdmin}
        busy={busy}
        onClose={() => setCreating(false)}
        onSave={async (title, global) => {
          await onSaveNew(title, global);
          setCreating(false);
        }}
      />
      <ConfirmDialog
        open={deleting}
        title={t('views.deleteTitle')}
        message={t('views.deleteMessage', { title: titleOf(current?.view.title ?? '') })}
        confirmLabel={t('views.delete')}
        danger
        busy={busy}
        onClose={() => setDeleting(false)}
        onConfirm={() => {
          if (!current) return;
          void onDelete(current)
            .catch(() => undefined)
            .finally(() => setDeleting(false));
        }}
      />
    </Box>
  );
}

function SaveViewDialog({
  open,
  isAdmin,
  busy,
  onClose,
  onSave,
}: {
  open: boolean;
  isAdmin: boolean;
  busy: boolean;
  onClose: () => void;
  onSave: (title: string, global: boolean) => Promise<void>;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [title, setTitle] = useState('');
  const [global, setGlobal] = useState(false);
  const [touched, setTouched] = useState(false);
  const empty = title.trim() === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (empty) return;
    void onSave(title.trim(), isAdmin && global)
      .then(() => {
        setTitle('');
        setGlobal(false);
        setTouched(false);
      })
      .catch(() => undefined);
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('views.newTitle')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            required
            margin="dense"
            label={t('views.titleField')}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            error={touched && empty}
            helperText={touched && empty ? t('validation.required') : t('views.newHint')}
            slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'view-title-input' } }}
          />
          {isAdmin && (
            <FormControlLabel
              sx={{ mt: 1 }}
              control={
                <Checkbox
                  checked={global}
                  onChange={(event) => setGlobal(event.target.checked)}
                  slotProps={{ input: { 'data-testid': 'view-global-checkbox' } as object }}
                />
              }
              label={t('views.globalField')}
            />
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={busy} data-testid="view-save-confirm">
            {t('common.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
