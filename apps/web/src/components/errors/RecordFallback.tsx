import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { RetryAlert } from '../RetryAlert.tsx';
import ForbiddenPage from './ForbiddenPage.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';

/**
 * What a record's page shows instead of the record: not found (404), forbidden (403) with the
 * reason, a retry for any other failure, and while it loads a skeleton of its header and body.
 */
export function RecordFallback({
  error,
  onRetry,
  bodyHeight,
}: {
  error: unknown;
  onRetry: () => void;
  bodyHeight: number;
}) {
  const { t } = useTranslation();
  if (error) {
    if (isApiError(error) && error.status === 404) return <NotFoundPage />;
    if (isApiError(error) && error.status === 403) return <ForbiddenPage message={errorMessage(t, error)} />;
    return <RetryAlert error={error} onRetry={onRetry} />;
  }
  return (
    <Box aria-busy="true">
      <Skeleton variant="rounded" height={104} sx={{ mb: 3 }} />
      <Skeleton variant="rounded" height={bodyHeight} />
    </Box>
  );
}
