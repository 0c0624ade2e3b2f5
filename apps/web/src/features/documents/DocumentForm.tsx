import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
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
import { type ReactNode, useEffect, useMemo } from 'react';
import { type Control, Controller, useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { MultilineField, Section, SelectField } from '../../components/form/fields.tsx';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { traderLabel } from '../../components/TraderPicker/api.ts';
import { type PickedTrader, TraderPicker } from '../../components/TraderPicker/TraderPicker.tsx';
import { fieldMessage } from '../../lib/errors.ts';
import { documentKey, documentsApi, documentsKey, optionLabel, referenceApi } from './api.ts';
import { type DocumentFormValues, documentContract, emptyDocument, toForm } from './documentForm.ts';
import type { ProtocolDocument } from './model.ts';

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
  const books = useQuery({
    queryKey: ['documents', 'books', kind],
    queryFn: ({ signal }) => documentsApi.books(kind, signal),
    staleTime: 60_000,
  });
  const types = useQuery({
    queryKey: ['documents', 'documentTypes'],
    queryFn: ({ signal }) => referenceApi.documentTypes(signal),
    staleTime: 60_000,
  });
  const categories = useQuery({
    queryKey: ['documents', 'subjectCategories'],
    queryFn: ({ signal }) => referenceApi.subjectCategories(signal),
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

export function DocumentForm({ document, initialKind, writable, onRegistered, children }: FormProps) {
  const { t } = useTranslation();
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
    create: (body) => documentsApi.create(body),
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
                    empty={
                      registered
                        ? undefined
                        : autoBook
                          ? t('docs.form.autoBookOption', { book: autoBook.label })
                          : t('docs.form.noBook')
                    }
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
                      helperText={t('common.dateHint')}
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
