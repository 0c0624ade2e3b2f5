import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  /** Label of the confirming button (default 'Continue'). */
  confirmLabel?: string;
  /** A destructive action: the confirming button is red. */
  danger?: boolean;
}

export interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  /** The action is running: the confirming button shows its progress. */
  busy?: boolean;
  onConfirm: () => void;
  /** Cancel, Escape or a click outside. */
  onClose: () => void;
}

/**
 * A confirmation, declared by its parent (`open`, `onConfirm`, `onClose`); `useConfirm()` offers
 * the same dialog as a promise. Buttons carry `confirm-dialog-ok` and `confirm-dialog-cancel`.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  danger,
  busy,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid="confirm-dialog"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId} component="div">
          {message}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="inherit" onClick={onClose} data-testid="confirm-dialog-cancel">
          {t('confirm.cancel')}
        </Button>
        <Button
          variant="contained"
          color={danger ? 'error' : 'primary'}
          onClick={onConfirm}
          loading={busy}
          data-testid="confirm-dialog-ok"
          autoFocus
        >
          {confirmLabel ?? t('confirm.continue')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface Pending extends ConfirmOptions {
  resolve: (ok: boolean) => void;
}

/**
 * A promise-based confirmation: `const [confirm, dialog] = useConfirm(); if (await confirm({…})) …`.
 * Render `dialog` once. A newer question answers the one still open with `false`.
 */
export function useConfirm(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const last = useRef<Pending | null>(null);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        last.current?.resolve(false);
        const next = { ...options, resolve };
        last.current = next;
        setPending(next);
        setOpen(true);
      }),
    [],
  );

  const close = (ok: boolean) => {
    pending?.resolve(ok);
    last.current = null;
    setOpen(false);
  };

  const dialog = (
    <ConfirmDialog
      open={open}
      title={pending?.title ?? ''}
      message={pending?.message}
      confirmLabel={pending?.confirmLabel}
      danger={pending?.danger}
      onConfirm={() => close(true)}
      onClose={() => close(false)}
    />
  );

  return [confirm, dialog];
}
