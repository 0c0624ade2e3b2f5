import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documentActions, type ProtocolDocument } from '../model.ts';
import { CaseFields } from './CaseFields.tsx';
import { ChargeFields } from './ChargeFields.tsx';
import { SendFields } from './SendFields.tsx';
import { ShareFields } from './ShareFields.tsx';
import { SignFields } from './SignFields.tsx';
import { Comments, type Request } from './shared.tsx';
import { TransferFields } from './TransferFields.tsx';

/** The actions that ask for more than a confirmation. */
export type DialogAction = 'charge' | 'share' | 'return' | 'sign' | 'send' | 'createCase' | 'fileTransfer';

const TITLES: Record<DialogAction, string> = {
  charge: 'docs.actions.chargeTitle',
  share: 'docs.actions.shareTitle',
  return: 'docs.actions.returnTitle',
  sign: 'docs.actions.signTitle',
  send: 'docs.actions.sendTitle',
  createCase: 'docs.actions.caseTitle',
  fileTransfer: 'docs.actions.transferTitle',
};

/**
 * The dialog of an action that needs input; every one takes comments. On one document, or (charge
 * and share) on `count` selected documents of a list.
 */
export function ActionDialog({
  action,
  document,
  count,
  pending,
  onClose,
  onRun,
}: {
  action: DialogAction;
  pending: boolean;
  onClose: () => void;
  onRun: (request: Request) => void;
} & (
  | { document: ProtocolDocument; count?: undefined }
  | { document?: undefined; count: number; action: 'charge' | 'share' }
)) {
  const { t } = useTranslation();
  const titleId = useId();
  const [comments, setComments] = useState('');
  const needsInput = ['charge', 'share', 'createCase', 'fileTransfer'].includes(action);
  const [extra, setExtra] = useState<Partial<Request> | null>(needsInput ? null : {});
  const currentCharge = document?.chargedUser?.fullName ?? document?.chargedGroup?.name ?? null;

  let fields: ReactNode = null;
  switch (action) {
    case 'charge':
      fields = <ChargeFields onReady={setExtra} />;
      break;
    case 'share':
      fields = <ShareFields onReady={setExtra} />;
      break;
    case 'return':
      fields = (
        <Typography variant="body2" color="text.secondary">
          {t('docs.actions.returnHint')}
        </Typography>
      );
      break;
    case 'sign':
      if (document) fields = <SignFields document={document} />;
      break;
    case 'send':
      if (document) fields = <SendFields document={document} onReady={setExtra} />;
      break;
    case 'createCase':
      fields = <CaseFields onReady={setExtra} />;
      break;
    case 'fileTransfer':
      if (document) fields = <TransferFields document={document} onReady={setExtra} />;
      break;
  }

  return (
    <Dialog
      open
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      data-testid={`action-dialog-${action}`}
    >
      <DialogTitle id={titleId}>
        {t(document ? TITLES[action] : `docs.actions.${action}ManyTitle`)}
        <Typography variant="body2" color="text.secondary" noWrap>
          {document
            ? `${document.protocolId ?? t('docs.form.unregistered')} · ${document.subject}`
            : t('docs.list.bulkSelected', { count })}
        </Typography>
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2.25} sx={{ pt: 1 }}>
          {action === 'charge' && currentCharge && (
            <Alert severity="info" icon={false}>
              {t('docs.actions.currentCharge', { name: currentCharge })}
            </Alert>
          )}
          {fields}
          <Comments value={comments} onChange={setComments} />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="inherit" onClick={onClose} disabled={pending} data-testid="action-dialog-cancel">
          {t('docs.actions.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={extra === null}
          loading={pending}
          onClick={() =>
            extra &&
            onRun({
              actionType: { id: documentActions[action] },
              comments: comments.trim() || null,
              ...extra,
            })
          }
          data-testid="action-dialog-ok"
        >
          {t(`docs.actions.name.${action}`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
