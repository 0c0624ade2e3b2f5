import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { BillDispatchList } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Notifier.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useCan } from '../../lib/permissions.ts';
import { active, DispatchRow, useOpenDispatchFile } from './RunSending.tsx';

export const chosenSendingsKey = ['billing', 'sending', 'chosen'] as const;

/**
 * The sendings of chosen bills (outside any run: a corrected bill, bills picked on the list), with
 * their progress, printed files, and closing each once its bills are posted or delivered.
 */
export function ChosenSendingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const can = useCan();
  const queryClient = useQueryClient();
  const openFile = useOpenDispatchFile();
  const sendings = useQuery({
    queryKey: [...chosenSendingsKey],
    queryFn: ({ signal }) => api.get<BillDispatchList>('/api/billing/dispatches', { signal }),
    refetchInterval: (query) => (query.state.data?.dispatches.some(active) ? 700 : false),
  });
  const complete = useMutation({
    mutationFn: (id: number) => api.post<{ completed: number }>(`/api/billing/dispatches/${id}/complete`, {}),
    meta: { errorSnackbar: false },
    onSuccess: (result) => {
      notify(t('billingUi.sending.completedDone', { count: result.completed }), 'success');
      return queryClient.invalidateQueries({ queryKey: chosenSendingsKey });
    },
    onError: (error) => notify(errorMessage(t, error), 'error'),
  });
  const dispatches = sendings.data?.dispatches ?? [];
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="billing-chosen-title">
      <DialogTitle id="billing-chosen-title">{t('billingUi.sending.chosenTitle')}</DialogTitle>
      <DialogContent data-testid="billing-chosen-sendings">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('billingUi.sending.chosenHint')}
        </Typography>
        {dispatches.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {sendings.isLoading ? t('billingUi.sending.loading') : t('billingUi.sending.noDispatches')}
          </Typography>
        ) : (
          <Table size="small" data-testid="billing-dispatches">
            <TableBody>
              {dispatches.map((d) => (
                <DispatchRow
                  key={d.id}
                  dispatch={d}
                  onOpen={openFile}
                  action={
                    can('billing:write') &&
                    d.sentBills > 0 && (
                      <Tooltip title={t('billingUi.sending.completeChosenHint')}>
                        <span>
                          <Button
                            size="small"
                            disabled={complete.isPending}
                            onClick={() => complete.mutate(d.id)}
                            data-testid="billing-dispatch-complete"
                          >
                            {t('billingUi.sending.completeCount', { count: d.sentBills })}
                          </Button>
                        </span>
                      </Tooltip>
                    )
                  }
                />
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} data-testid="billing-chosen-close">
          {t('billingUi.sending.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
