import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { RecordForm } from './useRecordForm.ts';

export interface FormFooterProps {
  /** What the form's state is: unsaved changes, no changes, the required-fields hint. */
  status: string;
  dirty: boolean;
  cancel: { label: string; disabled: boolean; onClick: () => void; testId: string };
  save: { label: string; pending: boolean; disabled: boolean; testId: string };
}

/** The sticky bar at the bottom of an edit form: its state, undo/cancel and save (a submit button). */
export function FormFooter({ status, dirty, cancel, save }: FormFooterProps) {
  return (
    <Paper
      variant="outlined"
      sx={(theme) => ({
        position: 'sticky',
        bottom: 0,
        mt: 3,
        px: { xs: 2, md: 3 },
        py: 1.5,
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        zIndex: 2,
        boxShadow: theme.palette.mode === 'light' ? '0 -4px 12px rgba(20,20,60,0.06)' : 'none',
      })}
    >
      <Typography variant="body2" color={dirty ? 'warning.main' : 'text.secondary'} sx={{ flexGrow: 1 }}>
        {status}
      </Typography>
      <Button color="inherit" disabled={cancel.disabled} onClick={cancel.onClick} data-testid={cancel.testId}>
        {cancel.label}
      </Button>
      <Button
        type="submit"
        variant="contained"
        loading={save.pending}
        disabled={save.disabled}
        data-testid={save.testId}
      >
        {save.label}
      </Button>
    </Paper>
  );
}

/**
 * The footer of a record form. Its texts come from the page's catalog: `<texts>.unsaved`,
 * `.noChanges`, `.requiredHint`, `.undo` and `.create`; test ids are `<testIdPrefix>-cancel|save`.
 */
export function RecordFormFooter({
  record,
  texts,
  testIdPrefix,
  readOnly = false,
  dirty = record.dirty,
  saveLabel,
  cancelTestId = `${testIdPrefix}-cancel`,
}: {
  record: RecordForm;
  texts: string;
  testIdPrefix: string;
  /** The operator may not save. */
  readOnly?: boolean;
  /** Changes the form's own state does not see (e.g. a secret marked to clear). */
  dirty?: boolean;
  saveLabel?: string;
  cancelTestId?: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { creating, saving } = record;
  return (
    <FormFooter
      dirty={dirty}
      status={dirty ? t(`${texts}.unsaved`) : creating ? t(`${texts}.requiredHint`) : t(`${texts}.noChanges`)}
      cancel={{
        label: creating ? t('common.cancel') : t(`${texts}.undo`),
        disabled: saving || (!creating && !dirty),
        onClick: () => (creating ? navigate(-1) : record.reset()),
        testId: cancelTestId,
      }}
      save={{
        label: saveLabel ?? (creating ? t(`${texts}.create`) : t('common.save')),
        pending: saving,
        disabled: readOnly || (!creating && !dirty),
        testId: `${testIdPrefix}-save`,
      }}
    />
  );
}
