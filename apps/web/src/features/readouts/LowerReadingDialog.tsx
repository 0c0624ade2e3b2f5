import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A lower reading than the previous one that nothing on the meter explains: kept only with its
 * reason (a meter changed unrecorded, a misread last time), as no consumption, for a supervisor's
 * review. Asked as soon as it is entered, so the reader gives it while at the meter.
 */
export function LowerReadingDialog({
  reading,
  previous,
  serial,
  onCancel,
  onReason,
}: {
  reading: string;
  previous: number;
  serial: string;
  onCancel: () => void;
  onReason: (reason: string) => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = () => {
    if (reason.trim() === '') {
      setMissing(true);
      return;
    }
    onReason(reason.trim());
  };
  return (
    <Dialog
      open
      onClose={onCancel}
      maxWidth="sm"
      fullWidth
      aria-labelledby="lower-reading-title"
      data-testid="lower-reading-dialog"
    >
      <DialogTitle id="lower-reading-title">{t('readoutsUi.lower.title', { serial })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('readoutsUi.lower.explain', { reading, previous })}
        </DialogContentText>
        <TextField
          label={t('readoutsUi.lower.reason')}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value.slice(0, 500));
            setMissing(false);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              submit();
            }
          }}
          error={missing}
          helperText={missing ? t('validation.required') : t('readoutsUi.lower.hint')}
          required
          fullWidth
          multiline
          minRows={2}
          autoFocus
          slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'lower-reading-reason' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('readoutsUi.lower.cancel')}</Button>
        <Button variant="contained" onClick={submit} data-testid="lower-reading-submit">
          {t('readoutsUi.lower.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
