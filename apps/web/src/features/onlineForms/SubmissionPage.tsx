import './i18n/index.ts';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Backdrop from '@mui/material/Backdrop';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type FormStructure,
  formatMoney,
  parseStructure,
  type Submission,
  type SubmissionValues,
  validateSubmission,
} from '@protocol/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api, companyHeaders, getToken, isApiError } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useLang, useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { formsApi } from './api.ts';
import { type FieldErrors, FormRenderer } from './FormRenderer.tsx';

/**
 * /online_forms/submissions/{id} (view) and …/edit: what the citizen submitted, as text, the status
 * with only the allowed next ones, a comment on each change, the assignee, the history, the linked
 * protocol document and the print.
 */
export default function SubmissionPage() {
  const language = useLang();
  const { submissionId = '' } = useParams();
  const id = Number(submissionId);
  const editing = useLocation().pathname.endsWith('/edit');
  const { t } = useTranslation();
  const localize = useLocalize();
  const navigate = useNavigate();
  const notify = useNotify();
  const can = useCan();
  const queryClient = useQueryClient();
  const key = ['onlineForms', 'submission', id];
  const submission = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => formsApi.submission(id, signal),
  });
  const groups = useQuery({
    queryKey: ['onlineForms', 'assigneeGroups'],
    queryFn: ({ signal }) =>
      api.get<{ id: number; name: string }[]>('/api/onlineForms/assignee_groups', {
        signal,
      }),
  });
  const groupName = (groupId: number | null) =>
    groupId === null ? '' : (groups.data?.find((g) => g.id === groupId)?.name ?? `#${groupId}`);
  const operators = useQuery({
    queryKey: ['onlineForms', 'assignees'],
    queryFn: ({ signal }) =>
      api.get<{ id: number; name: string }[]>('/api/onlineForms/assignees', {
        signal,
      }),
  });
  const data = submission.data;
  const title = data ? t('onlineForms.submissions.viewTitle', { reference: data.reference }) : '';
  useAppBar({ title });

  const [values, setValues] = useState<SubmissionValues>({});
  const [status, setStatus] = useState<number | ''>('');
  const [assignedTo, setAssignedTo] = useState<number | ''>('');
  const [assignedGroupId, setAssignedGroupId] = useState<number | ''>('');
  const [duplicateOf, setDuplicateOf] = useState('');
  const [caseId, setCaseId] = useState('');
  const [comments, setComments] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!data) return;
    setValues(data.values);
    setStatus('');
    setAssignedTo(data.assignedTo ?? '');
    setAssignedGroupId(data.assignedGroupId ?? '');
    setDuplicateOf(data.duplicateOf ? String(data.duplicateOf) : '');
    setCaseId(data.caseId ? String(data.caseId) : '');
    setComments('');
  }, [data]);

  const structure = useMemo<FormStructure>(() => {
    const parsed = data ? parseStructure(data.api) : null;
    return parsed?.ok ? parsed.structure : [];
  }, [data]);

  if (submission.isPending)
    return <Skeleton variant="rounded" height={480} data-testid="submission-loading" />;
  if (!data) return <Alert severity="error">{t('error.not_found')}</Alert>;

  const statusLabel = (s: number) => t(`onlineForms.submissionStatus.${s}`);
  const operatorName = (userId: number | null) =>
    userId === null
      ? t('onlineForms.submissions.unassigned')
      : (operators.data?.find((o) => o.id === userId)?.name ?? `#${userId}`);

  const save = async () => {
    // Spec §5: a submission that does not validate is not saved (silently: the fields say why).
    const checked = validateSubmission(structure, values);
    if (checked.errors.length > 0) {
      setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, { key: e.key, params: e.params }])));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const next = status === '' ? data.status : status;
      const savedId = await formsApi.saveSubmission({
        id: data.id,
        values,
        status: next,
        assignedTo: assignedTo === '' ? null : assignedTo,
        assignedGroupId: assignedGroupId === '' ? null : assignedGroupId,
        duplicateOf: next === 6 && duplicateOf ? Number(duplicateOf) : null,
        caseId: caseId ? Number(caseId) : null,
        comments: comments.trim() || null,
      });
      notify(t('message.updated_successfully.singular', { entity: t('onlineForms.entity') }), 'success');
      await queryClient.invalidateQueries({ queryKey: ['onlineForms', 'submission', savedId] });
      if (editing) navigate(localize(`/online_forms/submissions/${savedId}`));
    } catch (error) {
      if (isApiError(error)) {
        if (error.fieldErrors.length > 0) {
          setErrors(
            Object.fromEntries(error.fieldErrors.map((e) => [e.field, { key: e.key, params: e.params }])),
          );
        }
        notify(
          t(error.key, {
            ...error.params,
            from: t(String(error.params.from ?? '')),
            to: t(String(error.params.to ?? '')),
          }),
          'error',
        );
      } else console.error(error);
    } finally {
      setSaving(false);
    }
  };

  const print = async () => {
    // The form's own print address when it has one, else the built-in PDF (fetched with the session).
    if (data.printurl) {
      const address = data.printurl.replace('{id}', String(data.id)).replace('{reference}', data.reference);
      const target =
        address === data.printurl ? `${address}${address.includes('?') ? '&' : '?'}id=${data.id}` : address;
      window.open(target, '_blank', 'noopener');
      return;
    }
    const response = await fetch(formsApi.pdfUrl(data.id), {
      headers: { Authorization: `Bearer ${getToken() ?? ''}`, ...companyHeaders() },
    });
    const url = URL.createObjectURL(await response.blob());
    window.open(url, '_blank', 'noopener');
  };

  const writable = can('forms:write');
  return (
    <Box sx={{ position: 'relative' }}>
      <PageHeader
        title={title}
        subtitle={`${data.formTitle} · ${t('onlineForms.submissions.version', { version: data.formVersion })} · ${formatDateTime(data.submittedAt)}`}
        avatar={<InboxOutlinedIcon />}
        testId="submission-header"
        actions={
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<PrintOutlinedIcon />}
              onClick={() => void print()}
              data-testid="submission-print"
            >
              {t('onlineForms.submissions.print')}
            </Button>
            {writable && !editing && (
              <Button
                variant="outlined"
                startIcon={<EditOutlinedIcon />}
                onClick={() => navigate(localize(`/online_forms/submissions/${data.id}/edit`))}
                data-testid="submission-edit"
              >
                {t('onlineForms.submissions.edit')}
              </Button>
            )}
          </Stack>
        }
      />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' },
          alignItems: 'start',
        }}
      >
        <Paper variant="outlined" sx={{ p: 2.5 }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 2 }}>
            {t('onlineForms.submissions.values')}
          </Typography>
          <FormRenderer
            structure={structure}
            values={values}
            onChange={editing ? setValues : undefined}
            readOnly={!editing}
            errors={errors}
            t={t}
            idPrefix="submission"
          />
        </Paper>
        <Stack spacing={2}>
          <Paper variant="outlined" sx={{ p: 2.5 }}>
            <Stack spacing={1.5}>
              <Fact
                label={t('onlineForms.submission.status')}
                value={statusLabel(data.status)}
                testId="submission-status"
              />
              <Fact
                label={t('onlineForms.submissions.assignedTo')}
                value={operatorName(data.assignedTo)}
                testId="submission-assignee"
              />
              {data.assignedGroupId !== null && (
                <Fact
                  label={t('onlineForms.submissions.assignedGroup')}
                  value={groupName(data.assignedGroupId)}
                />
              )}
              <Box>
                <Typography variant="caption" color="text.secondary">
                  {t('onlineForms.submissions.protocolDocument')}
                </Typography>
                <Typography>
                  {data.documentId ? (
                    <Link
                      component={RouterLink}
                      to={localize(`/document/${data.documentId}/edit`)}
                      data-testid="submission-document"
                    >
                      <DescriptionOutlinedIcon fontSize="inherit" sx={{ mr: 0.5, verticalAlign: 'middle' }} />
                      {data.protocolNumber}
                    </Link>
                  ) : (
                    t('onlineForms.submissions.noDocument')
                  )}
                </Typography>
              </Box>
              <Box>
                <Typography variant="caption" color="text.secondary">
                  {t('onlineForms.submissions.trader')}
                </Typography>
                <Typography data-testid="submission-trader">
                  {data.traderId !== null ? (
                    <Link component={RouterLink} to={localize(`/traders/${data.traderId}/edit`)}>
                      {t('onlineForms.submissions.openTrader')}
                    </Link>
                  ) : (
                    t('onlineForms.submissions.traderOnAccept')
                  )}
                </Typography>
              </Box>
              {data.rfCode && (
                <Fact
                  label={t('onlineForms.public.rfCode')}
                  value={`${data.rfCode} · ${formatMoney(data.fee ?? '0', language)} €`}
                />
              )}
              {data.duplicateOf && (
                <Box>
                  <Typography variant="caption" color="text.secondary">
                    {t('onlineForms.submissions.duplicateOf')}
                  </Typography>
                  <Typography>
                    <Link
                      component={RouterLink}
                      to={localize(`/online_forms/submissions/${data.duplicateOf}`)}
                    >
                      #{data.duplicateOf}
                    </Link>
                  </Typography>
                </Box>
              )}
              {data.caseId && (
                <Box>
                  <Typography variant="caption" color="text.secondary">
                    {t('onlineForms.submissions.case')}
                  </Typography>
                  <Typography>
                    <Link
                      component={RouterLink}
                      to={localize(`/cases/${data.caseId}/edit`)}
                      data-testid="submission-case"
                    >
                      #{data.caseId}
                    </Link>
                  </Typography>
                </Box>
              )}
            </Stack>
          </Paper>
          {writable && (
            <Paper
              variant="outlined"
              component="form"
              sx={{ p: 2.5 }}
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              <Stack spacing={2}>
                <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {t('onlineForms.submissions.changeStatus')}
                </Typography>
                <TextField
                  select
                  size="small"
                  label={t('onlineForms.submissions.newStatus')}
                  value={status}
                  onChange={(event) => setStatus(event.target.value === '' ? '' : Number(event.target.value))}
                  slotProps={{ htmlInput: { 'data-testid': 'submission-new-status' } }}
                >
                  <MenuItem value="">{t('onlineForms.submissions.keepStatus')}</MenuItem>
                  {data.allowedStatuses.map((s) => (
                    <MenuItem key={s} value={s} data-testid={`submission-status-option-${s}`}>
                      {statusLabel(s)}
                    </MenuItem>
                  ))}
                </TextField>
                {status === 6 && (
                  <TextField
                    size="small"
                    label={t('onlineForms.submissions.duplicateOf')}
                    value={duplicateOf}
                    onChange={(event) => setDuplicateOf(event.target.value.replace(/\D/g, ''))}
                    required
                  />
                )}
                <TextField
                  select
                  size="small"
                  label={t('onlineForms.submissions.assignedTo')}
                  value={assignedTo}
                  onChange={(event) =>
                    setAssignedTo(event.target.value === '' ? '' : Number(event.target.value))
                  }
                  slotProps={{ htmlInput: { 'data-testid': 'submission-assign' } }}
                >
                  <MenuItem value="">{t('onlineForms.submissions.unassigned')}</MenuItem>
                  {(operators.data ?? []).map((o) => (
                    <MenuItem key={o.id} value={o.id} data-testid={`submission-assign-option-${o.id}`}>
                      {o.name}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  size="small"
                  label={t('onlineForms.submissions.assignedGroup')}
                  value={assignedGroupId}
                  onChange={(event) =>
                    setAssignedGroupId(event.target.value === '' ? '' : Number(event.target.value))
                  }
                >
                  <MenuItem value="">{t('onlineForms.submissions.unassigned')}</MenuItem>
                  {(groups.data ?? []).map((g) => (
                    <MenuItem key={g.id} value={g.id}>
                      {g.name}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  size="small"
                  label={t('onlineForms.submissions.caseId')}
                  value={caseId}
                  onChange={(event) => setCaseId(event.target.value.replace(/\D/g, ''))}
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                />
                <TextField
                  size="small"
                  multiline
                  minRows={2}
                  label={t('onlineForms.submissions.comments')}
                  value={comments}
                  onChange={(event) => setComments(event.target.value)}
                  slotProps={{ htmlInput: { 'data-testid': 'submission-comments' } }}
                />
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                  {editing && (
                    <Button
                      color="inherit"
                      onClick={() => navigate(localize(`/online_forms/submissions/${data.id}`))}
                    >
                      {t('onlineForms.submissions.cancel')}
                    </Button>
                  )}
                  <Button type="submit" variant="contained" loading={saving} data-testid="submission-save">
                    {t('onlineForms.submissions.save')}
                  </Button>
                </Stack>
              </Stack>
            </Paper>
          )}
          <History data={data} statusLabel={statusLabel} operatorName={operatorName} groupName={groupName} />
        </Stack>
      </Box>
      <Backdrop open={saving} sx={{ position: 'absolute', zIndex: 5, bgcolor: 'rgba(255,255,255,0.4)' }}>
        <CircularProgress aria-label={t('onlineForms.saving')} />
      </Backdrop>
    </Box>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography data-testid={testId}>{value}</Typography>
    </Box>
  );
}

function History({
  data,
  statusLabel,
  operatorName,
  groupName,
}: {
  data: Submission;
  statusLabel: (s: number) => string;
  operatorName: (id: number | null) => string;
  groupName: (id: number | null) => string;
}) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2.5 }} data-testid="submission-history">
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('onlineForms.submissions.history')}
      </Typography>
      <Stack spacing={1.5} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {[...data.history].reverse().map((line) => (
          <Box component="li" key={line.id} sx={{ borderLeft: 2, borderColor: 'divider', pl: 1.5 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {line.fromStatus === null
                ? t('onlineForms.submissions.created')
                : t('onlineForms.submissions.historyLine', {
                    from: statusLabel(line.fromStatus),
                    to: statusLabel(line.toStatus),
                  })}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(line.createdAt)}
              {line.userName ? ` · ${line.userName}` : ''}
              {line.assignedTo !== null
                ? ` · ${t('onlineForms.submissions.assignedTo')}: ${operatorName(line.assignedTo)}`
                : ''}
              {line.assignedGroupId !== null
                ? ` · ${t('onlineForms.submissions.assignedGroup')}: ${groupName(line.assignedGroupId)}`
                : ''}
            </Typography>
            {line.comments && (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
                {line.comments}
              </Typography>
            )}
          </Box>
        ))}
      </Stack>
    </Paper>
  );
}
