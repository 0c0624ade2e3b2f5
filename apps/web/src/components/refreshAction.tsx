import RefreshIcon from '@mui/icons-material/Refresh';
import type { TFunction } from 'i18next';
import type { PageAction } from '../lib/appBarContext.tsx';

/** The app bar's "Refresh" of a record page: reloads what the page shows. */
export function refreshAction(
  t: TFunction,
  onClick: () => void,
  testId: string,
  labelKey = 'common.refresh',
): PageAction {
  return {
    key: 'refresh',
    label: t(labelKey),
    icon: <RefreshIcon fontSize="small" />,
    onClick,
    testId,
  };
}
