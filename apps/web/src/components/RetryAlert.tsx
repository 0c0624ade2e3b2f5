import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/api.ts';
import { errorMessage } from '../lib/errors.ts';

interface Props {
  /** What failed: its translated message is shown. */
  error: unknown;
  onRetry: () => void;
  testId?: string;
  sx?: SxProps<Theme>;
}

/**
 * A failed load: the error's message and a 'Retry' button; a refused one (403) says in words that
 * the operator may not see it, with no button, since trying again changes nothing.
 */
export function RetryAlert({ error, onRetry, testId, sx }: Props) {
  const { t } = useTranslation();
  if (isApiError(error) && error.status === 403) {
    return (
      <Alert severity="warning" sx={sx} data-testid={testId ?? 'load-forbidden'}>
        {t('errorPage.forbiddenData')}
      </Alert>
    );
  }
  return (
    <Alert
      severity="error"
      sx={sx}
      data-testid={testId}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {errorMessage(t, error)}
    </Alert>
  );
}
