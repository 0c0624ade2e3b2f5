import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

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
