import './i18n/index.ts';
import MoveToInboxOutlinedIcon from '@mui/icons-material/MoveToInboxOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useFastSwitch } from '../../components/DataTable/FastSwitch.tsx';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useCan } from '../../lib/permissions.ts';
import { AttachmentsPanel } from './AttachmentsPanel.tsx';
import { documentKey, documentsApi, LIST_SEARCH_URL } from './api.ts';
import { DocumentActionsMenu } from './DocumentActions.tsx';
import { DocumentForm } from './DocumentForm.tsx';
import { DocumentInfo } from './DocumentInfo.tsx';
import { documentsCatalog } from './model.ts';
import { ReceiptButton, useRegistrationReceipt } from './receipt.tsx';

function CreateDocument() {
  const { t } = useTranslation();
  const can = useCan();
  const [params] = useSearchParams();
  const kind = params.get('kind') === '1' ? 1 : 0;
  const title = kind === 1 ? t('docs.form.createOutgoing') : t('docs.form.createIncoming');
  useAppBar({ title });
  if (!can('protocol:write')) return <ForbiddenPage />;
  return (
    <Box data-testid="document-page">
      <PageHeader
        title={title}
        subtitle={t('docs.form.createSubtitle')}
        avatar={kind === 1 ? <OutboxOutlinedIcon /> : <MoveToInboxOutlinedIcon />}
        testId="document-header"
      />
      <DocumentForm key={kind} initialKind={kind} writable>
        <AttachmentsPanel writable={false} />
      </DocumentForm>
    </Box>
  );
}

function stateLabel(t: (key: string) => string, state: number): string | null {
  if (state === 1) return t('docs.list.views.archived');
  if (state === 9) return t('docs.list.views.deleted');
  return null;
}

function EditDocument({ id }: { id: number }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: documentKey(id),
    queryFn: ({ signal }) => documentsApi.get(id, signal),
  });
  const document = query.data;
  const searchUrl = LIST_SEARCH_URL.all;
  const receipt = useRegistrationReceipt();
  const location = useLocation();
  const navigate = useNavigate();
  // Registered on the create page: the receipt step runs here once, then the state is cleared.
  const receiptAsked = useRef(false);
  const receiptFor = (location.state as { receiptFor?: number } | null)?.receiptFor;
  const { afterRegistration } = receipt;
  useEffect(() => {
    if (!document || receiptFor !== document.id || receiptAsked.current) return;
    receiptAsked.current = true;
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    void afterRegistration(document);
  }, [document, receiptFor, afterRegistration, navigate, location.pathname, location.search]);
  useFastSwitch({
    entity: documentsCatalog.entity,
    catalog: documentsCatalog,
    editPath: (documentId) => `/document/${documentId}/edit`,
    currentId: id,
    searchUrl,
  });
  // The page's actions (refresh included) are the one menu in its header, not a second in the app bar.
  useAppBar({ title: t('docs.form.editTitle') });

  if (query.error || !document)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={420} />;
  const editAction = document.actions.find((action) => action.name === 'edit' || action.id === 1);
  const writable = document.state === 0 && (editAction?.allowed ?? false);
  const state = stateLabel(t, document.state);
  return (
    <Box data-testid="document-page" data-document-id={document.id}>
      <PageHeader
        title={document.subject || t('docs.form.editTitle')}
        testId="document-header"
        avatar={document.kind === 1 ? <OutboxOutlinedIcon /> : <MoveToInboxOutlinedIcon />}
        subtitle={
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              columnGap: 1.25,
              rowGap: 0.5,
              mt: 0.5,
            }}
          >
            {document.protocolId ? (
              <Typography
                component="span"
                sx={{
                  fontWeight: 700,
                  fontSize: '1.15rem',
                  color: 'primary.main',
                  fontVariantNumeric: 'tabular-nums',
                }}
                data-testid="document-protocol-id"
                data-registered="true"
              >
                {t('documents.field.protocolId')} {document.protocolId}
              </Typography>
            ) : (
              <Chip
                size="small"
                variant="outlined"
                color="warning"
                label={t('docs.form.unregistered')}
                data-testid="document-protocol-id"
                data-registered="false"
              />
            )}
            {document.protocolId && (
              <ReceiptButton busy={receipt.busy} onClick={() => void receipt.open(document, false)} />
            )}
            {document.protocolDate && (
              <span data-testid="document-protocol-date">
                {t('docs.form.registeredOn', { date: formatDateTime(document.protocolDate) })}
              </span>
            )}
            {document.protocolBook && (
              <span>{t('docs.form.book', { book: document.protocolBook.descr })}</span>
            )}
            <Chip
              size="small"
              label={t(`documents.kind.${document.kind}`)}
              data-testid="document-kind-chip"
            />
            {state && <Chip size="small" color="error" label={state} data-testid="document-state-chip" />}
          </Box>
        }
        audit={document}
        actions={
          <DocumentActionsMenu
            document={document}
            onEdit={() => {
              const subject = window.document.querySelector<HTMLElement>('[data-testid="document-subject"]');
              subject?.scrollIntoView({ behavior: 'smooth', block: 'center' });
              subject?.focus();
            }}
            onRefresh={() => void query.refetch()}
          />
        }
      />
      <DocumentForm
        document={document}
        initialKind={document.kind === 1 ? 1 : 0}
        writable={writable}
        onRegistered={(saved) => void receipt.afterRegistration(saved)}
      >
        <AttachmentsPanel document={document} writable={writable} />
        <DocumentInfo document={document} />
      </DocumentForm>
      {receipt.dialog}
    </Box>
  );
}

/** /document/create (?kind=0|1) and /document/{documentId}/edit (spec §2, §3 Document). */
export default function DocumentEditPage() {
  return (
    <RecordRoute
      param="documentId"
      create={<CreateDocument />}
      edit={(id) => <EditDocument key={id} id={id} />}
    />
  );
}
