import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import Button from '@mui/material/Button';
import { receiptPrintTypes } from '@protocol/contracts';
import { type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { fetchReceipt } from './api.ts';
import type { ProtocolDocument } from './model.ts';

/** How long a receipt's blob: URL lives (the viewer and the print dialog have it by then). */
const URL_LIFETIME_MS = 5 * 60_000;

/** Prints a PDF from a hidden frame of this page: the fallback when a new window is blocked. */
function printInFrame(url: string): void {
  const frame = window.document.createElement('iframe');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  frame.setAttribute('aria-hidden', 'true');
  frame.dataset.testid = 'receipt-print-frame';
  frame.src = url;
  frame.onload = () => {
    try {
      frame.contentWindow?.focus();
      frame.contentWindow?.print();
    } catch {
      // A viewer that refuses print(): the operator prints from the viewer.
    }
  };
  window.document.body.appendChild(frame);
  setTimeout(() => frame.remove(), URL_LIFETIME_MS);
}

/**
 * The registration receipt (spec §3 printype/copies): opens it for viewing or printing, with the
 * session's Bearer token (a plain link would carry none), and after a save that registered the
 * document does what its type says: 0 nothing, 1 print, 2 ask first, 3 view.
 */
export function useRegistrationReceipt(): {
  open: (document: Pick<ProtocolDocument, 'id'>, print: boolean) => Promise<void>;
  afterRegistration: (document: ProtocolDocument) => Promise<void>;
  busy: boolean;
  dialog: ReactNode;
} {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  const [confirm, dialog] = useConfirm();
  const [busy, setBusy] = useState(false);

  const open = useCallback(
    async (document: Pick<ProtocolDocument, 'id'>, print: boolean) => {
      setBusy(true);
      try {
        const blob = await fetchReceipt(document.id, i18n.language);
        const url = URL.createObjectURL(
          blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }),
        );
        setTimeout(() => URL.revokeObjectURL(url), URL_LIFETIME_MS);
        const win = window.open(url, '_blank');
        if (!win) {
          // Pop-ups blocked: print from a hidden frame, or say how to see it.
          if (print) printInFrame(url);
          else notify(t('docs.receipt.blocked'), 'warning');
          return;
        }
        if (print) win.addEventListener('load', () => win.print(), { once: true });
      } catch (failure) {
        notify(errorMessage(t, failure), 'error');
      } finally {
        setBusy(false);
      }
    },
    [i18n.language, notify, t],
  );

  const afterRegistration = useCallback(
    async (document: ProtocolDocument) => {
      const printype = document.receipt?.printype ?? receiptPrintTypes.none;
      if (printype === receiptPrintTypes.print) await open(document, true);
      else if (printype === receiptPrintTypes.view) await open(document, false);
      else if (printype === receiptPrintTypes.ask) {
        const ok = await confirm({
          title: t('docs.receipt.askTitle'),
          message: t('docs.receipt.askMessage', {
            protocolId: document.protocolId ?? '',
            count: document.receipt?.copies ?? 1,
          }),
          confirmLabel: t('docs.receipt.print'),
        });
        if (ok) await open(document, true);
      }
    },
    [confirm, open, t],
  );

  return { open, afterRegistration, busy, dialog };
}

/** The "Receipt" button next to the protocol number of a registered document. */
export function ReceiptButton({ onClick, busy }: { onClick: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<ReceiptLongOutlinedIcon fontSize="small" />}
      onClick={onClick}
      loading={busy}
      data-testid="document-receipt"
      sx={{ py: 0.25 }}
    >
      {t('docs.receipt.button')}
    </Button>
  );
}
