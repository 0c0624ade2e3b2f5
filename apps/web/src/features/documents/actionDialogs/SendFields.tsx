import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInstallationEnv } from '../../../lib/env.ts';
import { type ProtocolDocument, sendMethods } from '../model.ts';
import type { Request } from './shared.tsx';

/**
 * Send: how the document goes out. By e-mail it goes to every receiver's address, with its files;
 * the dialog lists them, and says what is missing (a receiver without e-mail, no mail server).
 */
export function SendFields({
  document,
  onReady,
}: {
  document: ProtocolDocument;
  onReady: (request: Partial<Request> | null) => void;
}) {
  const { t } = useTranslation();
  const mailEnabled = useInstallationEnv()?.mail.enabled ?? false;
  const [method, setMethod] = useState<(typeof sendMethods)[number]>(mailEnabled ? 'email' : 'post');
  const receivers = document.receivers;
  const withoutEmail = receivers.filter((receiver) => !receiver.email);
  const mailable = mailEnabled && receivers.length > 0 && withoutEmail.length === 0;
  useEffect(
    () => onReady(method === 'email' && !mailable ? null : { sendMethod: method }),
    [method, mailable, onReady],
  );
  return (
    <Stack spacing={2}>
      <TextField
        select
        fullWidth
        label={t('docs.actions.sendMethod')}
        value={method}
        onChange={(event) => setMethod(event.target.value as (typeof sendMethods)[number])}
        slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'action-send-method' } }}
      >
        {sendMethods.map((value) => (
          <option key={value} value={value} disabled={value === 'email' && !mailEnabled}>
            {value === 'email' && !mailEnabled
              ? t('docs.actions.sendMailOff', { method: t(`docs.actions.method.${value}`) })
              : t(`docs.actions.method.${value}`)}
          </option>
        ))}
      </TextField>
      {method === 'email' &&
        (receivers.length === 0 ? (
          <Alert severity="warning" data-testid="send-no-receivers">
            {t('docs.actions.sendNoReceivers')}
          </Alert>
        ) : (
          <Box data-testid="send-recipients">
            <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
              {t('docs.actions.sendTo', { count: document.attachedFilesCount })}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {receivers.map((receiver) => (
                <li key={receiver.id}>
                  <Typography variant="body2">
                    {receiver.fullname}
                    {' · '}
                    {receiver.email ? (
                      receiver.email
                    ) : (
                      <Box component="span" sx={{ color: 'error.main' }}>
                        {t('docs.actions.sendNoEmail')}
                      </Box>
                    )}
                  </Typography>
                </li>
              ))}
            </Box>
            {withoutEmail.length > 0 && (
              <Alert severity="warning" sx={{ mt: 1.5 }} data-testid="send-missing-email">
                {t('docs.actions.sendMissingEmail')}
              </Alert>
            )}
          </Box>
        ))}
    </Stack>
  );
}
