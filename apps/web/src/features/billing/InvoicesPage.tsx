import './i18n/index.ts';
import ForwardToInboxOutlinedIcon from '@mui/icons-material/ForwardToInboxOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import RequestQuoteOutlinedIcon from '@mui/icons-material/RequestQuoteOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import {
  type BillDispatchStarted,
  type BillListItem,
  billEntryStates,
  billSendStatuses,
  billsCatalog,
  periodNameIn,
  writtenCode,
} from '@protocol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useInstallationEnv } from '../../lib/env.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLang } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { BILLS_META_KEY, BILLS_SEARCH_URL, openBillPdf } from './api.ts';
import { ChosenSendingsDialog, chosenSendingsKey } from './ChosenSendings.tsx';

type Row = BillListItem & Record<string, unknown>;

const sendable = (row: Row) =>
  row.entryState === billEntryStates.finalized && row.sendStatus === billSendStatuses.hold;
/** On hold, or marked to send (the server prints only those marked for print, not for e-mail). */
const printable = (row: Row) =>
  row.entryState === billEntryStates.finalized &&
  (row.sendStatus === billSendStatuses.hold || row.sendStatus === billSendStatuses.send);

/**
 * /invoices: the bills on the list engine (period, route, state, send status, amount; Greek filters;
 * exports); the selected finalized bills on hold can be e-mailed or printed from here (a corrected
 * bill, bills no run sends), and those sendings followed and closed.
 */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const title = t('billingUi.invoices.title');
  useAppBar({ title });
  const can = useCan();
  const mailEnabled = useInstallationEnv()?.mail.enabled ?? false;
  const [selected, setSelected] = useState<Row[]>([]);
  const [reload, setReload] = useState(0);
  const [sendings, setSendings] = useState(false);
  const queryClient = useQueryClient();
  const billIds = selected.filter(sendable).map((row) => row.id);
  const printIds = selected.filter(printable).map((row) => row.id);
  const print = useMutation({
    mutationFn: () =>
      api.post<BillDispatchStarted>('/api/billing/dispatches/print', {
        billIds: printIds,
      }),
    meta: { errorSnackbar: false },
    onSuccess: (started) => {
      notify(t('billingUi.sending.printQueued', { count: started.print }), 'success');
      setSelected([]);
      setReload((value) => value + 1);
      setSendings(true);
      return queryClient.invalidateQueries({ queryKey: chosenSendingsKey });
    },
    onError: (error) => notify(errorMessage(t, error), 'error'),
  });
  const send = useMutation({
    mutationFn: () => api.post<BillDispatchStarted>('/api/billing/dispatches/email', { billIds }),
    meta: { errorSnackbar: false },
    onSuccess: (started) => {
      notify(t('billingUi.sending.emailQueued', { email: started.email, print: started.print }), 'success');
      setSelected([]);
      setReload((value) => value + 1);
      return queryClient.invalidateQueries({ queryKey: chosenSendingsKey });
    },
    onError: (error) => notify(errorMessage(t, error), 'error'),
  });
  const onRowClick = useCallback(
    (row: Row) =>
      void openBillPdf(row.id, language).catch(() => notify(t('billingUi.invoices.pdfError'), 'error')),
    [language, notify, t],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('billingUi.invoices.subtitle')}
        avatar={<RequestQuoteOutlinedIcon />}
        testId="billing-invoices-header"
        actions={
          <Stack direction="row" spacing={1}>
            <Button
              startIcon={<OutboxOutlinedIcon />}
              onClick={() => setSendings(true)}
              data-testid="billing-invoices-sendings"
            >
              {t('billingUi.sending.dispatches')}
            </Button>
            {can('billing:write') && (
              <Tooltip title={printIds.length > 0 ? '' : t('billingUi.sending.printSelectedHint')}>
                <span>
                  <Button
                    variant="outlined"
                    startIcon={<PrintOutlinedIcon />}
                    disabled={printIds.length === 0 || print.isPending}
                    onClick={() => print.mutate()}
                    data-testid="billing-invoices-print"
                  >
                    {t('billingUi.sending.printSelected')}
                    {printIds.length > 0 ? ` (${printIds.length})` : ''}
                  </Button>
                </span>
              </Tooltip>
            )}
            {can('billing:write') && mailEnabled && (
              <Tooltip title={billIds.length > 0 ? '' : t('billingUi.sending.sendSelectedHint')}>
                <span>
                  <Button
                    variant="outlined"
                    startIcon={<ForwardToInboxOutlinedIcon />}
                    disabled={billIds.length === 0 || send.isPending}
                    onClick={() => send.mutate()}
                    data-testid="billing-invoices-send"
                  >
                    {t('billingUi.sending.sendSelected')}
                    {billIds.length > 0 ? ` (${billIds.length})` : ''}
                  </Button>
                </span>
              </Tooltip>
            )}
          </Stack>
        }
      />
      <DataTable<Row>
        key={reload}
        catalog={billsCatalog}
        searchUrl={BILLS_SEARCH_URL}
        metaUrl="/api/users/meta"
        metaKey={BILLS_META_KEY}
        title={title}
        onRowClick={onRowClick}
        rowLabel={(row) => `${writtenCode(row.code)} · ${periodNameIn(row.periodLabel, language)}`}
        rowSecondary={(row) => row.ownerName ?? ''}
        onSelectionChange={setSelected}
      />
      {sendings && <ChosenSendingsDialog onClose={() => setSendings(false)} />}
    </>
  );
}
