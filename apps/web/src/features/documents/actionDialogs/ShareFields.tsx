import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { OperatorRef } from '@protocol/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OperatorsPicker, type Request } from './shared.tsx';

/** Share: with one or more operators, who may then read the document. */
export function ShareFields({ onReady }: { onReady: (request: Partial<Request> | null) => void }) {
  const { t } = useTranslation();
  const [users, setUsers] = useState<OperatorRef[]>([]);
  useEffect(
    () => onReady(users.length > 0 ? { userIds: users.map((user) => user.id) } : null),
    [users, onReady],
  );
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t('docs.actions.shareHint')}
      </Typography>
      <OperatorsPicker multiple value={users} onChange={setUsers} label={t('docs.actions.operators')} />
    </Stack>
  );
}
