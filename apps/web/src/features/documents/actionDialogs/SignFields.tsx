import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates.ts';
import type { ProtocolDocument } from '../model.ts';

export function SignFields({ document }: { document: ProtocolDocument }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('docs.actions.signHint')}
      </Typography>
      <Box>
        <Typography variant="subtitle2">{t('docs.info.signatures')}</Typography>
        {document.signatures.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('docs.info.noSignatures')}
          </Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="sign-existing">
            {document.signatures.map((signature) => (
              <li key={signature.id}>
                <Typography variant="body2">
                  {t('docs.info.signedBy', {
                    name: signature.user.fullName || signature.user.username,
                    date: formatDateTime(signature.signedAt),
                  })}
                </Typography>
              </li>
            ))}
          </Box>
        )}
      </Box>
    </Stack>
  );
}
