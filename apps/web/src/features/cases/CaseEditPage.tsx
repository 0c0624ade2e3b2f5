import './i18n/index.ts';
import FolderCopyOutlinedIcon from '@mui/icons-material/FolderCopyOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import {
  casesCatalog,
  type DocumentListItem,
  type SaveCaseRequest,
  saveCaseSchema,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useFastSwitch } from '../../components/DataTable/FastSwitch.tsx';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { MultilineField, Section, SelectField, SwitchField } from '../../components/form/fields.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { refreshAction } from '../../components/refreshAction.tsx';
import { type PageAction, useAppBar } from '../../lib/appBarContext.tsx';
import { useCan } from '../../lib/permissions.ts';
import { CASES_SEARCH_URL, type Case, caseKey, casesApi, casesKey, timelineKey } from './api.ts';
import { type CaseDocumentRow, CaseDocuments, fromListItem } from './CaseDocuments.tsx';
import { CaseTimeline } from './CaseTimeline.tsx';

interface CaseFormValues {
  code: string;
  name: string;
  caseTypeId: string;
  agencies: string;
  comments: string;
  closed: boolean;
}

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
  const query = useQuery({
    queryKey: ['protocol', 'case_types'],
    queryFn: ({ signal }) => casesApi.caseTypes(signal),
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

/** Code, description, type, agencies, comments and closed; on a new case, the documents picked before saving. */
function CaseForm({ item }: { item?: Case }) {
  const { t } = useTranslation();
  const can = useCan();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const writable = can('protocol:write');
  const initial = useMemo(() => (item ? toForm(item) : { ...EMPTY }), [item]);
  const caseTypes = useCaseTypes(item?.caseType);
  const [pending, setPending] = useState<CaseDocumentRow[]>([]);
  const record = useRecordForm({
    record: item,
    initial,
    // Linking and unlinking documents refreshes the case: what is being typed stays.
    resetOptions: { keepDirtyValues: true },
    contract: {
      schema: saveCaseSchema,
      // A new case takes the documents picked before it was saved; a saved one links them at once.
      toBody: (values: CaseFormValues) =>
        toBody(
          values,
          pending.map((document) => document.id),
        ),
    },
    create: (body) => casesApi.create(body),
    update: (current, body) => casesApi.update(current.id, body),
    queryKey: (saved) => caseKey(saved.id),
    invalidate: [casesKey],
    savedMessage: (saved, creating) =>
      t(creating ? 'cases.form.created' : 'cases.form.updated', { code: saved.code }),
    editPath: (saved) => `/cases/${saved.id}/edit`,
  });
  const { control, creating } = record;

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
    <Box component="form" noValidate onSubmit={record.submit}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            <Section title={t('cases.form.details')}>
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <FormTextField
                    control={control}
                    name="code"
                    label={t('cases.field.code')}
                    helperText={creating ? t('cases.form.codeHint') : undefined}
                    testId="case-code"
                    autoComplete="off"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 8 }}>
                  <SelectField
                    control={control}
                    name="caseTypeId"
                    label={t('cases.field.caseType')}
                    options={caseTypes}
                    empty={t('cases.form.none')}
                    testId="case-caseType"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={12}>
                  <FormTextField
                    control={control}
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
                    control={control}
                    name="agencies"
                    label={t('cases.field.agencies')}
                    helperText={t('cases.form.agenciesHint')}
                    testId="case-agencies"
                    autoComplete="off"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={12}>
                  <MultilineField
                    control={control}
                    name="comments"
                    label={t('cases.form.comments')}
                    testId="case-comments"
                    rows={3}
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={12}>
                  <SwitchField
                    control={control}
                    name="closed"
                    label={t('cases.field.closed')}
                    testId="case-closed"
                    disabled={!writable}
                  />
                </Grid>
              </Grid>
            </Section>
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
      <RecordFormFooter record={record} texts="cases.form" testIdPrefix="case" readOnly={!writable} />
      {confirmDialog}
    </Box>
  );
}

function CreateCase() {
  const { t } = useTranslation();
  const can = useCan();
  useAppBar({ title: t('cases.form.createTitle') });
  if (!can('protocol:write')) return <ForbiddenPage />;
  return (
    <Box data-testid="case-page">
      <PageHeader
        title={t('cases.form.createTitle')}
        subtitle={t('cases.form.createSubtitle')}
        avatar={<FolderCopyOutlinedIcon />}
      />
      <CaseForm />
    </Box>
  );
}

function EditCase({ id }: { id: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: caseKey(id), queryFn: ({ signal }) => casesApi.get(id, signal) });
  const item = query.data;
  useFastSwitch({
    entity: 'cases',
    catalog: casesCatalog,
    editPath: (caseId) => `/cases/${caseId}/edit`,
    currentId: id,
    searchUrl: CASES_SEARCH_URL,
  });
  const actions = useMemo<PageAction[]>(
    () => [
      refreshAction(
        t,
        () => {
          void query.refetch();
          void queryClient.invalidateQueries({ queryKey: timelineKey(id) });
        },
        'case-refresh',
      ),
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
      <CaseForm item={item} />
    </Box>
  );
}

/** /cases/Create and /cases/{id}/edit (spec §2, §3 Case). */
export default function CaseEditPage() {
  return <RecordRoute param="caseId" create={<CreateCase />} edit={(id) => <EditCase key={id} id={id} />} />;
}
