import './i18n/index.ts';
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

interface Pending extends ConfirmOptions {
  resolve: (ok: boolean) => void;
}

/**
 * A promise-based confirmation: `const [confirm, dialog] = useConfirm(); if (await confirm({…})) …`.
 * Render `dialog` once. Buttons carry `confirm-dialog-ok` and `confirm-dialog-cancel`.
 */
export function useConfirm(): [(options: ConfirmOptions) => Promise<boolean>, ReactNode] {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
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
    <Dialog
      open={open}
      onClose={() => close(false)}
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid="confirm-dialog"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{pending?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId} component="div">
          {pending?.message}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="inherit" onClick={() => close(false)} data-testid="confirm-dialog-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          color={pending?.danger ? 'error' : 'primary'}
          onClick={() => close(true)}
          data-testid="confirm-dialog-ok"
          autoFocus
        >
          {pending?.confirmLabel ?? t('rowTable.continue')}
        </Button>
      </DialogActions>
    </Dialog>
  );

  return [confirm, dialog];
}
