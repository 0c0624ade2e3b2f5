import './i18n/index.ts';
import FolderCopyOutlinedIcon from '@mui/icons-material/FolderCopyOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { casesCatalog, type DocumentListItem, type SaveCaseRequest } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { useCompany, useCompanyPath } from '../../app/company.tsx';
import ForbiddenPage from '../../app/errors/ForbiddenPage.tsx';
import { NotFoundPage } from '../../app/errors/NotFoundPage.tsx';
import { RecordFallback } from '../../app/errors/RecordFallback.tsx';
import { useLocalize } from '../../app/language.tsx';
import { useCan } from '../../app/permissions.ts';
import { type PageAction, useAppBar } from '../../app/shell/appBarContext.tsx';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useFastSwitch } from '../../components/DataTable/FastSwitch.tsx';
import { FormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { contractResolver } from '../../components/form/resolver.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { isApiError } from '../../lib/api.ts';
import { applyFieldErrors, errorMessage, fieldMessage } from '../../lib/errors.ts';
import { CASES_SEARCH_URL, type Case, caseKey, casesApi, casesKey, timelineKey } from './api.ts';
import { type CaseDocumentRow, CaseDocuments, fromListItem } from './CaseDocuments.tsx';
import { CaseTimeline } from './CaseTimeline.tsx';

const formSchema = z.object({
  code: z.string().trim().max(60),
  name: z.string().trim().min(1).max(500),
  caseTypeId: z.string(),
  agencies: z.string().trim().max(1000),
  comments: z.string().trim().max(4000),
  closed: z.boolean(),
});
type CaseFormValues = z.input<typeof formSchema>;
const FORM_FIELDS = ['code', 'name', 'caseTypeId', 'agencies', 'comments', 'closed'] as const;

const EMPTY: CaseFormValues = {
  code: '',
  name: '',
  caseTypeId: '',
  agencies: '',
  comments: '',
  closed: false,
};

const toForm = (item: Case): CaseFormValues => ({
  code: item.code,
  name: item.name,
  caseTypeId: item.caseType ? String(item.caseType.id) : '',
  agencies: item.agencies ?? '',
  comments: item.comments ?? '',
  closed: item.closed,
});

const toBody = (values: CaseFormValues, documentIds: number[] = []): SaveCaseRequest => ({
  code: values.code.trim() || null,
  name: values.name.trim(),
  caseTypeId: values.caseTypeId ? Number(values.caseTypeId) : null,
  agencies: values.agencies.trim() || null,
  comments: values.comments.trim() || null,
  closed: values.closed,
  documentIds,
});

function useCaseTypes(current: Case['caseType'] | undefined) {
  const { companyId } = useCompany();
  const query = useQuery({
    queryKey: ['protocol', 'case_types', companyId],
    queryFn: ({ signal }) => casesApi.caseTypes(companyId, signal),
    staleTime: 60_000,
  });
  return useMemo(() => {
    const options = (query.data ?? [])
      .filter((type) => type.active || type.id === current?.id)
      .map((type) => ({ value: String(type.id), label: type.descr }));
    // The case's own type, even when the list cannot be read.
    if (current && !options.some((option) => option.value === String(current.id))) {
      options.unshift({ value: String(current.id), label: current.descr });
    }
    return options;
  }, [query.data, current]);
}

interface FormProps {
  item?: Case;
  onSaved: (saved: Case) => void;
}

/** Code, description, type, agencies, comments and closed; on a new case, the documents picked before saving. */
function CaseForm({ item, onSaved }: FormProps) {
  const { t } = useTranslation();
  const can = useCan();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { companyId } = useCompany();
  const [confirm, confirmDialog] = useConfirm();
  const creating = !item;
  const writable = can('protocol:write');
  const initial = useMemo(() => (item ? toForm(item) : { ...EMPTY }), [item]);
  const form = useForm<CaseFormValues>({ resolver: contractResolver(formSchema), defaultValues: initial });
  useEffect(() => form.reset(initial, { keepDirtyValues: true }), [initial, form]);
  const dirty = form.formState.isDirty;
  const caseTypes = useCaseTypes(item?.caseType);
  const [pending, setPending] = useState<CaseDocumentRow[]>([]);

  const save = useMutation({
    mutationFn: (values: CaseFormValues) =>
      item
        ? casesApi.update(item.id, toBody(values))
        : casesApi.create(
            toBody(
              values,
              pending.map((document) => document.id),
            ),
            companyId,
          ),
    meta: { errorSnackbar: false },
    onSuccess: onSaved,
    onError: (failure) => {
      const unmatched = isApiError(failure)
        ? applyFieldErrors(failure.fieldErrors, FORM_FIELDS, form.setError)
        : [];
      if (!isApiError(failure) || failure.fieldErrors.length === 0 || unmatched.length > 0) {
        notify(errorMessage(t, failure), 'error');
      }
    },
  });

  // Linked documents of a saved case change at once; a new case keeps them until it is saved.
  const refresh = (saved: Case) => {
    queryClient.setQueryData(caseKey(saved.id), saved);
    void queryClient.invalidateQueries({ queryKey: timelineKey(saved.id) });
    void queryClient.invalidateQueries({ queryKey: casesKey, exact: false, refetchType: 'none' });
  };
  const link = useMutation({
    mutationFn: (documentIds: number[]) => casesApi.addDocuments(item?.id ?? 0, documentIds),
    onSuccess: (saved, documentIds) => {
      refresh(saved);
      notify(t('cases.documents.added', { count: documentIds.length }), 'success');
    },
  });
  const unlink = useMutation({
    mutationFn: (documentId: number) => casesApi.removeDocument(item?.id ?? 0, documentId),
    onSuccess: (saved) => {
      refresh(saved);
      notify(t('cases.documents.removed'), 'success');
    },
  });
  const onAdd = (picked: DocumentListItem[]) => {
    if (item) link.mutate(picked.map((document) => document.id));
    else setPending((current) => [...current, ...picked.map(fromListItem)]);
  };
  const onRemove = async (document: CaseDocumentRow) => {
    if (!item) {
      setPending((current) => current.filter((row) => row.id !== document.id));
      return;
    }
    const ok = await confirm({
      title: t('cases.documents.removeTitle'),
      message: t('cases.documents.removeMessage', { subject: document.subject }),
      confirmLabel: t('cases.documents.remove'),
      danger: true,
    });
    if (ok) unlink.mutate(document.id);
  };

  const documents: CaseDocumentRow[] = item ? item.documents : pending;
  return (
    <Box component="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 } }}>
              <Typography variant="h2" sx={{ fontSize: '1.05rem', mb: 2.5 }}>
                {t('cases.form.details')}
              </Typography>
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <FormTextField
                    control={form.control}
                    name="code"
                    label={t('cases.field.code')}
                    helperText={creating ? t('cases.form.codeHint') : undefined}
                    testId="case-code"
                    autoComplete="off"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 8 }}>
                  <Controller
                    control={form.control}
                    name="caseTypeId"
                    render={({ field, fieldState }) => (
                      <TextField
                        select
                        fullWidth
                        label={t('cases.field.caseType')}
                        value={field.value}
                        onChange={(event) => field.onChange(event.target.value)}
                        onBlur={field.onBlur}
                        inputRef={field.ref}
                        disabled={!writable}
                        error={Boolean(fieldState.error)}
                        helperText={fieldMessage(t, fieldState.error?.message)}
                        slotProps={{
                          select: { native: true },
                          inputLabel: { shrink: true },
                          htmlInput: { 'data-testid': 'case-caseType' },
                        }}
                      >
                        <option value="">{t('cases.form.none')}</option>
                        {caseTypes.map((option) => (
                          <option key={option.value} value={option.value}>
                            {option.label}
                          </option>
                        ))}
                      </TextField>
                    )}
                  />
                </Grid>
                <Grid size={12}>
                  <FormTextField
                    control={form.control}
                    name="name"
                    label={t('cases.field.name')}
                    required
                    testId="case-name"
                    autoComplete="off"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={12}>
                  <FormTextField
                    control={form.control}
                    name="agencies"
                    label={t('cases.field.agencies')}
                    helperText={t('cases.form.agenciesHint')}
                    testId="case-agencies"
                    autoComplete="off"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={12}>
                  <Controller
                    control={form.control}
                    name="comments"
                    render={({ field, fieldState }) => (
                      <TextField
                        fullWidth
                        multiline
                        minRows={3}
                        label={t('cases.form.comments')}
                        value={field.value}
                        onChange={field.onChange}
                        onBlur={field.onBlur}
                        inputRef={field.ref}
                        disabled={!writable}
                        error={Boolean(fieldState.error)}
                        helperText={fieldMessage(t, fieldState.error?.message)}
                        slotProps={{ htmlInput: { 'data-testid': 'case-comments' } }}
                      />
                    )}
                  />
                </Grid>
                <Grid size={12}>
                  <Controller
                    control={form.control}
                    name="closed"
                    render={({ field }) => (
                      <FormControlLabel
                        label={t('cases.field.closed')}
                        disabled={!writable}
                        control={
                          <Switch
                            checked={field.value === true}
                            onChange={(event) => field.onChange(event.target.checked)}
                            onBlur={field.onBlur}
                            slotProps={{ input: { 'data-testid': 'case-closed', role: 'switch' } as object }}
                          />
                        }
                      />
                    )}
                  />
                </Grid>
              </Grid>
            </Paper>
            <CaseDocuments
              documents={documents}
              writable={writable}
              busy={link.isPending || unlink.isPending}
              hint={creating && pending.length > 0 ? t('cases.documents.pendingHint') : undefined}
              onAdd={onAdd}
              onRemove={(document) => void onRemove(document)}
            />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <CaseTimeline caseId={item?.id ?? null} />
        </Grid>
      </Grid>
      <FormFooter
        dirty={dirty}
        status={
          dirty
            ? t('cases.form.unsaved')
            : creating
              ? t('cases.form.requiredHint')
              : t('cases.form.noChanges')
        }
        cancel={{
          label: creating ? t('common.cancel') : t('cases.form.undo'),
          disabled: save.isPending || (!creating && !dirty),
          onClick: () => (creating ? navigate(-1) : form.reset(initial)),
          testId: 'case-cancel',
        }}
        save={{
          label: creating ? t('cases.form.create') : t('common.save'),
          pending: save.isPending,
          disabled: !writable || (!creating && !dirty),
          testId: 'case-save',
        }}
      />
      {confirmDialog}
    </Box>
  );
}

function CreateCase() {
  const { t } = useTranslation();
  const can = useCan();
  const notify = useNotify();
  const navigate = useNavigate();
  const localize = useLocalize();
  const queryClient = useQueryClient();
  useAppBar({ title: t('cases.form.createTitle') });
  if (!can('protocol:write')) return <ForbiddenPage />;
  return (
    <Box data-testid="case-page">
      <PageHeader
        title={t('cases.form.createTitle')}
        subtitle={t('cases.form.createSubtitle')}
        avatar={<FolderCopyOutlinedIcon />}
      />
      <CaseForm
        onSaved={(created) => {
          queryClient.setQueryData(caseKey(created.id), created);
          void queryClient.invalidateQueries({ queryKey: casesKey, exact: false, refetchType: 'none' });
          notify(t('cases.form.created', { code: created.code }), 'success');
          navigate(localize(`/cases/${created.id}/edit`), { replace: true });
        }}
      />
    </Box>
  );
}

function EditCase({ id }: { id: number }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: caseKey(id), queryFn: ({ signal }) => casesApi.get(id, signal) });
  const item = query.data;
  const searchUrl = useCompanyPath(CASES_SEARCH_URL);
  useFastSwitch({
    entity: 'cases',
    catalog: casesCatalog,
    editPath: (caseId) => `/cases/${caseId}/edit`,
    currentId: id,
    searchUrl,
  });
  const actions = useMemo<PageAction[]>(
    () => [
      {
        key: 'refresh',
        label: t('common.refresh'),
        icon: <RefreshIcon fontSize="small" />,
        onClick: () => {
          void query.refetch();
          void queryClient.invalidateQueries({ queryKey: timelineKey(id) });
        },
        testId: 'case-refresh',
      },
    ],
    [t, query.refetch, queryClient, id],
  );
  useAppBar({ title: t('cases.form.editTitle'), actions });

  if (query.error || !item)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={320} />;
  return (
    <Box data-testid="case-page">
      <PageHeader
        title={item.name}
        subtitle={
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <span data-testid="case-code-shown">
              {t('cases.field.code')}: <strong>{item.code}</strong>
            </span>
            {item.caseType && <span>· {item.caseType.descr}</span>}
            <Chip
              size="small"
              variant={item.closed ? 'filled' : 'outlined'}
              color={item.closed ? 'default' : 'success'}
              label={item.closed ? t('cases.form.closedChip') : t('cases.form.openChip')}
              data-testid="case-state-chip"
            />
            <Chip
              size="small"
              variant="outlined"
              label={t('cases.form.documentsCount', { count: item.documents.length })}
            />
          </Box>
        }
        avatar={<FolderCopyOutlinedIcon />}
        audit={item}
      />
      <CaseForm
        item={item}
        onSaved={(saved) => {
          queryClient.setQueryData(caseKey(saved.id), saved);
          void queryClient.invalidateQueries({ queryKey: casesKey, exact: false, refetchType: 'none' });
          notify(t('cases.form.updated', { code: saved.code }), 'success');
        }}
      />
    </Box>
  );
}

/** /cases/Create and /cases/{id}/edit (spec §2, §3 Case). */
export default function CaseEditPage() {
  const { caseId } = useParams();
  if (caseId === undefined) return <CreateCase />;
  const id = Number(caseId);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return <EditCase key={id} id={id} />;
}
