import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import MoveToInboxOutlinedIcon from '@mui/icons-material/MoveToInboxOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DEFAULT_DOCUMENT_TYPE_SEQNR } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { type Control, Controller, useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useCompany, useCompanyPath } from '../../app/company.tsx';
import ForbiddenPage from '../../app/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../app/errors/RecordFallback.tsx';
import { useCan } from '../../app/permissions.ts';
import { type PageAction, useAppBar } from '../../app/shell/appBarContext.tsx';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useFastSwitch } from '../../components/DataTable/FastSwitch.tsx';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { MultilineField, Section, SelectField } from '../../components/form/fields.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { refreshAction } from '../../components/refreshAction.tsx';
import { traderLabel } from '../../components/TraderPicker/api.ts';
import { type PickedTrader, TraderPicker } from '../../components/TraderPicker/TraderPicker.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { fieldMessage } from '../../lib/errors.ts';
import { AttachmentsPanel } from './AttachmentsPanel.tsx';
import {
  documentKey,
  documentsApi,
  documentsKey,
  LIST_SEARCH_URL,
  optionLabel,
  referenceApi,
} from './api.ts';
import { DocumentActionsMenu } from './DocumentActions.tsx';
import { DocumentInfo } from './DocumentInfo.tsx';
import { type DocumentFormValues, documentContract, emptyDocument, toForm } from './documentForm.ts';
import { documentsCatalog, type ProtocolDocument } from './model.ts';
import { ReceiptButton, useRegistrationReceipt } from './receipt.tsx';

type FormControlT = Control<DocumentFormValues>;

/** Several traders: the chosen ones as removable chips, and the trader picker to add one more. */
function TradersField({
  control,
  name,
  label,
  addLabel,
  emptyText,
  disabled,
}: {
  control: FormControlT;
  name: 'senders' | 'receivers';
  label: string;
  addLabel: string;
  emptyText: string;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = field.value as PickedTrader[];
        return (
          <Box data-testid={`document-${name}`}>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {label}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1.5 }}>
              {value.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  {emptyText}
                </Typography>
              )}
              {value.map((trader) => (
                <Chip
                  key={trader.id}
                  label={
                    trader.vatnumber ? `${traderLabel(trader)} · ${trader.vatnumber}` : traderLabel(trader)
                  }
                  onDelete={
                    disabled ? undefined : () => field.onChange(value.filter((item) => item.id !== trader.id))
                  }
                  data-testid={`document-${name}-chip-${trader.id}`}
                />
              ))}
            </Box>
            {!disabled && (
              <TraderPicker
                value={null}
                label={addLabel}
                testId={`document-${name}-picker`}
                onChange={(trader) => {
                  if (trader && !value.some((item) => item.id === trader.id))
                    field.onChange([...value, trader]);
                }}
              />
            )}
            {fieldState.error && (
              <Typography variant="caption" color="error">
                {fieldMessage(t, fieldState.error.message)}
              </Typography>
            )}
          </Box>
        );
      }}
    />
  );
}

/** Publications of the document (Διαύγεια, website…): a small editor of rows. */
function Publications({ control, disabled }: { control: FormControlT; disabled: boolean }) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'publications' });
  return (
    <Box data-testid="document-publications">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('docs.form.publications')}
      </Typography>
      <Stack spacing={1.5}>
        {fields.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('docs.form.noPublications')}
          </Typography>
        )}
        {fields.map((item, index) => (
          <Grid container spacing={1.5} key={item.id} data-testid={`publication-${index}`}>
            <Grid size={{ xs: 6, md: 2.5 }}>
              <FormTextField
                control={control}
                name={`publications.${index}.portal`}
                label={t('docs.form.portal')}
                required
                disabled={disabled}
                testId={`publication-portal-${index}`}
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <FormTextField
                control={control}
                name={`publications.${index}.reference`}
                label={t('docs.form.reference')}
                required
                disabled={disabled}
                testId={`publication-reference-${index}`}
              />
            </Grid>
            <Grid size={{ xs: 5, md: 2 }}>
              <FormTextField
                control={control}
                name={`publications.${index}.date`}
                label={t('docs.form.publicationDate')}
                disabled={disabled}
                testId={`publication-date-${index}`}
              />
            </Grid>
            <Grid size={{ xs: 6, md: 4 }}>
              <FormTextField
                control={control}
                name={`publications.${index}.url`}
                label={t('docs.form.url')}
                disabled={disabled}
                testId={`publication-url-${index}`}
              />
            </Grid>
            <Grid size={{ xs: 1, md: 0.5 }}>
              {!disabled && (
                <Tooltip title={t('docs.form.remove')}>
                  <IconButton
                    onClick={() => remove(index)}
                    aria-label={t('docs.form.remove')}
                    data-testid={`publication-remove-${index}`}
                    sx={{ mt: 1 }}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Grid>
          </Grid>
        ))}
        {!disabled && (
          <Box>
            <Button
              startIcon={<AddIcon />}
              onClick={() => append({ portal: '', reference: '', date: '', url: '' })}
              data-testid="publication-add"
            >
              {t('docs.form.addPublication')}
            </Button>
          </Box>
        )}
      </Stack>
    </Box>
  );
}

function useReferenceLists(kind: number) {
  const { companyId } = useCompany();
  const books = useQuery({
    queryKey: ['documents', 'books', companyId, kind],
    queryFn: ({ signal }) => documentsApi.books(kind, companyId, signal),
    staleTime: 60_000,
  });
  const types = useQuery({
    queryKey: ['documents', 'documentTypes', companyId],
    queryFn: ({ signal }) => referenceApi.documentTypes(companyId, signal),
    staleTime: 60_000,
  });
  const categories = useQuery({
    queryKey: ['documents', 'subjectCategories', companyId],
    queryFn: ({ signal }) => referenceApi.subjectCategories(companyId, signal),
    staleTime: 60_000,
  });
  return { books, types, categories };
}

interface FormProps {
  document?: ProtocolDocument;
  initialKind: 0 | 1;
  /** Whether the operator may change the document now. */
  writable: boolean;
  /** A save that registered the document (the registration receipt follows). */
  onRegistered?: (document: ProtocolDocument) => void;
  children?: ReactNode;
}

function DocumentForm({ document, initialKind, writable, onRegistered, children }: FormProps) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const [confirm, confirmDialog] = useConfirm();
  const registered = document?.protocolNumber !== null && document?.protocolNumber !== undefined;
  const initial = useMemo(
    () => (document ? toForm(document) : emptyDocument(initialKind)),
    [document, initialKind],
  );
  const contract = useMemo(() => documentContract(document), [document]);
  const registeredBy = (saved: ProtocolDocument) => !registered && saved.protocolNumber !== null;
  const record = useRecordForm({
    record: document,
    initial,
    contract,
    create: (body) => documentsApi.create(body, companyId),
    update: (current, body) => documentsApi.update(current.id, body),
    queryKey: (saved) => documentKey(saved.id),
    invalidate: [documentsKey, ['list']],
    savedMessage: (saved, creating) =>
      registeredBy(saved) && saved.protocolId
        ? t('docs.form.registered', { protocolId: saved.protocolId })
        : t(creating ? 'docs.form.created' : 'docs.form.updated'),
    // The edit page does what the type says with the registration receipt (print, ask, view).
    editPath: (saved) => `/document/${saved.id}/edit`,
    editState: (saved) => (registeredBy(saved) ? { receiptFor: saved.id } : undefined),
    onSaved: (saved, creating) => {
      if (!creating && registeredBy(saved)) onRegistered?.(saved);
    },
    confirm: (): Promise<boolean> =>
      registering
        ? confirm({
            title: t('docs.form.confirmRegisterTitle'),
            message: t('docs.form.confirmRegisterMessage', { book: chosenBook?.label ?? '' }),
            confirmLabel: t('docs.form.confirmRegister'),
          })
        : Promise.resolve(true),
  });
  const { form, control, creating } = record;

  const kind = Number(useWatch({ control, name: 'kind' })) as 0 | 1;
  const bookId = useWatch({ control, name: 'protocolBookId' });
  const { books, types, categories } = useReferenceLists(kind);

  // A new document gets the company's default type (code 3) once the types are known.
  useEffect(() => {
    if (!creating || form.getValues('documentTypeId') || !types.data) return;
    const fallback = types.data.find((row) => row.seqnr === DEFAULT_DOCUMENT_TYPE_SEQNR);
    if (fallback) form.setValue('documentTypeId', String(fallback.id));
  }, [creating, types.data, form]);
  // Another kind offers other books: a book of the former kind is dropped.
  useEffect(() => {
    if (registered || !books.data) return;
    const current = form.getValues('protocolBookId');
    if (current && !books.data.some((book) => String(book.id) === current))
      form.setValue('protocolBookId', '');
  }, [registered, books.data, form]);

  const bookOptions = (books.data ?? []).map((book) => ({
    value: String(book.id),
    label: book.year && !book.descr.includes(String(book.year)) ? `${book.descr} (${book.year})` : book.descr,
  }));
  const typeId = useWatch({ control, name: 'documentTypeId' });
  const chosenType = (types.data ?? []).find((row) => String(row.id) === typeId);
  // A type with autonr registers a document saved without a book in the company's only active book.
  const autoBook =
    !registered && !bookId && chosenType?.autonr && bookOptions.length === 1 ? bookOptions[0] : undefined;
  const chosenBook = bookOptions.find((option) => option.value === bookId) ?? autoBook;
  const registering = !registered && Boolean(chosenBook);

  const disabled = !writable;
  const typeOptions = (types.data ?? [])
    .filter((row) => row.active !== false || String(row.id) === initial.documentTypeId)
    .map((row) => ({ value: String(row.id), label: optionLabel(row) }));
  const categoryOptions = (categories.data ?? [])
    .filter((row) => row.active !== false || String(row.id) === initial.subjectCategoryId)
    .map((row) => ({ value: String(row.id), label: optionLabel(row) }));
  // A registered document shows its own book even when it is no longer active.
  if (
    registered &&
    document?.protocolBook &&
    !bookOptions.some((option) => option.value === initial.protocolBookId)
  ) {
    bookOptions.push({
      value: String(document.protocolBook.id),
      label: document.protocolBook.descr,
    });
  }

  return (
    <Box
      component="form"
      noValidate
      onSubmit={record.submit}
      data-testid="document-form"
      data-mode={creating ? 'create' : 'edit'}
    >
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Stack spacing={3}>
            {disabled && !creating && (
              <Alert severity="info" data-testid="document-readonly">
                {t('docs.form.readOnly')}
              </Alert>
            )}
            <Section title={t('docs.form.registration')} testId="document-registration">
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <SelectField
                    control={control}
                    name="kind"
                    label={t('docs.form.kind')}
                    options={[
                      { value: '0', label: t('documents.kind.0') },
                      { value: '1', label: t('documents.kind.1') },
                    ]}
                    testId="document-kind"
                    disabled={disabled || registered}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 8 }}>
                  <SelectField
                    control={control}
                    name="protocolBookId"
                    label={t('docs.form.protocolBook')}
                    options={bookOptions}
                    empty={registered ? undefined : t('docs.form.noBook')}
                    testId="document-book"
                    disabled={disabled || registered}
                    helperText={
                      registered ? (
                        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                          <LockOutlinedIcon sx={{ fontSize: 14 }} />
                          {t('docs.form.bookLocked')}
                        </Box>
                      ) : autoBook ? (
                        t('docs.form.autoBook', { book: autoBook.label })
                      ) : books.data && books.data.length === 0 ? (
                        t('docs.form.noBooks')
                      ) : (
                        t('docs.form.bookHint')
                      )
                    }
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <SelectField
                    control={control}
                    name="documentTypeId"
                    label={t('docs.form.documentType')}
                    options={typeOptions}
                    empty={t('docs.form.none')}
                    testId="document-type"
                    disabled={disabled}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <SelectField
                    control={control}
                    name="subjectCategoryId"
                    label={t('docs.form.subjectCategory')}
                    options={categoryOptions}
                    empty={t('docs.form.none')}
                    testId="document-subject-category"
                    disabled={disabled}
                  />
                </Grid>
              </Grid>
            </Section>
            <Section title={t('docs.form.details')} testId="document-details">
              <Stack spacing={2.25}>
                <MultilineField
                  control={control}
                  name="subject"
                  label={t('docs.form.subject')}
                  testId="document-subject"
                  required
                  disabled={disabled}
                />
                <FormTextField
                  control={control}
                  name="name"
                  label={t('docs.form.name')}
                  testId="document-name"
                  disabled={disabled}
                  autoComplete="off"
                />
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField
                      control={control}
                      name="protocolIdSender"
                      label={t('docs.form.protocolIdSender')}
                      testId="document-protocol-id-sender"
                      disabled={disabled}
                      autoComplete="off"
                    />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <FormTextField
                      control={control}
                      name="protocolSendDate"
                      label={t('docs.form.protocolSendDate')}
                      helperText={t('docs.form.dateHint')}
                      testId="document-protocol-send-date"
                      disabled={disabled}
                      autoComplete="off"
                    />
                  </Grid>
                </Grid>
              </Stack>
            </Section>
            <Section title={t('docs.form.correspondents')} testId="document-correspondents">
              <Stack spacing={3}>
                <TradersField
                  control={control}
                  name="senders"
                  label={t('docs.form.senders')}
                  addLabel={t('docs.form.addSender')}
                  emptyText={t('docs.form.noSenders')}
                  disabled={disabled}
                />
                <TradersField
                  control={control}
                  name="receivers"
                  label={t('docs.form.receivers')}
                  addLabel={t('docs.form.addReceiver')}
                  emptyText={t('docs.form.noReceivers')}
                  disabled={disabled}
                />
              </Stack>
            </Section>
            <Section title={t('docs.form.other')} testId="document-other">
              <Stack spacing={2.5}>
                <FormTextField
                  control={control}
                  name="folder"
                  label={t('docs.form.folder')}
                  testId="document-folder"
                  disabled={disabled}
                  autoComplete="off"
                />
                <Publications control={control} disabled={disabled} />
                <MultilineField
                  control={control}
                  name="comments"
                  label={t('docs.form.comments')}
                  testId="document-comments"
                  disabled={disabled}
                />
              </Stack>
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Stack spacing={3}>{children}</Stack>
        </Grid>
      </Grid>
      <RecordFormFooter
        record={record}
        texts="docs.form"
        testIdPrefix="document"
        readOnly={disabled}
        saveLabel={registering ? t('docs.form.register') : t('docs.form.create')}
      />
      {confirmDialog}
    </Box>
  );
}

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
  const searchUrl = useCompanyPath(LIST_SEARCH_URL.all);
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
  const actions = useMemo<PageAction[]>(
    () => [refreshAction(t, () => void query.refetch(), 'document-refresh', 'docs.form.refresh')],
    [t, query.refetch],
  );
  useAppBar({ title: t('docs.form.editTitle'), actions });

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
