import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type ChangePasswordRequest,
  changeOwnPasswordSchema,
  changePasswordSchema,
} from '@protocol/contracts';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api.ts';
import { useUser } from '../lib/currentUser.tsx';
import { errorMessage } from '../lib/errors.ts';
import { FormTextField } from './form/FormTextField.tsx';
import { contractResolver } from './form/resolver.ts';
import { placeSaveError } from './form/saveError.ts';
import { useNotify } from './Notifier.tsx';

const EMPTY: ChangePasswordRequest = { currentPassword: '', password: '', confirmedPassword: '' };

interface Props {
  open: boolean;
  onClose: () => void;
  /** Another operator's password, set by an admin (default: the signed-in user's own). */
  userId?: number;
  /** That operator's name, shown under the title. */
  userName?: string;
}

/**
 * Spec §5: both fields required, at most 220 characters, advised at least 8, and they must match.
 * One's own password also needs the current one; an administrator setting another's does not.
 */
export default function ChangePasswordDialog({ open, onClose, userId, userName }: Props) {
  const { t } = useTranslation();
  const user = useUser();
  const targetId = userId ?? user.id;
  const own = targetId === user.id;
  const notify = useNotify();
  const titleId = useId();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<ChangePasswordRequest>({
    resolver: contractResolver(own ? changeOwnPasswordSchema : changePasswordSchema),
    defaultValues: EMPTY,
  });

  useEffect(() => {
    if (open) {
      form.reset(EMPTY);
      setError(null);
    }
  }, [open, form]);

  const change = useMutation({
    mutationFn: ({ currentPassword, ...values }: ChangePasswordRequest) =>
      api.put<void>(`/api/users/${targetId}/change_password`, own ? { currentPassword, ...values } : values),
    meta: { errorSnackbar: false },
    onSuccess: () => {
      notify(t('changePassword.success'), 'success');
      onClose();
    },
    onError: (failure) => {
      if (!placeSaveError(failure, form)) setError(failure);
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    change.mutate(values);
  });

  return (
    <Dialog
      open={open}
      onClose={change.isPending ? undefined : onClose}
      data-testid="change-password-dialog"
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id={titleId}>
          {t('changePassword.title')}
          {userName && (
            <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
              {userName}
            </Typography>
          )}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2.25} sx={{ pt: 1 }}>
            {error !== null && <Alert severity="error">{errorMessage(t, error)}</Alert>}
            {own && (
              <FormTextField
                control={form.control}
                name="currentPassword"
                type="password"
                label={t('changePassword.currentPassword')}
                autoComplete="current-password"
                autoFocus
                required
                testId="change-password-current"
              />
            )}
            <FormTextField
              control={form.control}
              name="password"
              type="password"
              label={t('changePassword.password')}
              autoComplete="new-password"
              autoFocus={!own}
              required
              testId="change-password-password"
              helperText={t('changePassword.hint')}
            />
            <FormTextField
              control={form.control}
              name="confirmedPassword"
              type="password"
              label={t('changePassword.confirmedPassword')}
              autoComplete="new-password"
              required
              testId="change-password-confirm"
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} disabled={change.isPending} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            loading={change.isPending}
            data-testid="change-password-submit"
          >
            {t('changePassword.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
