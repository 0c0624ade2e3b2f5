import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { AssigneeGroup, OperatorRef } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompany } from '../../app/company.tsx';
import { useInstallationEnv } from '../../app/env.ts';
import { formatDateTime } from '../../lib/dates.ts';
import { documentsApi, optionLabel, referenceApi } from './api.ts';
import {
  type DocumentActionRequest,
  type DocumentListItem,
  documentActions,
  type ProtocolDocument,
  type SettingOption,
  sendMethods,
} from './model.ts';

/** The actions that ask for more than a confirmation. */
export type DialogAction = 'charge' | 'share' | 'return' | 'sign' | 'send' | 'createCase' | 'fileTransfer';

type Request = Omit<DocumentActionRequest, 'document'>;

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

const userName = (user: OperatorRef) => user.fullName || user.username;

/** The company's active operators and its user groups: one answer for both pickers (protocol:read). */
function useAssignees() {
  const { companyId } = useCompany();
  return useQuery({
    queryKey: ['documents', 'assignees', companyId],
    queryFn: ({ signal }) => referenceApi.assignees(companyId, signal),
    staleTime: 60_000,
  });
}

function Comments({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('docs.actions.comments')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      multiline
      minRows={3}
      fullWidth
      slotProps={{ htmlInput: { 'data-testid': 'action-comments', maxLength: 4000 } }}
    />
  );
}

function OperatorsPicker({
  multiple,
  value,
  onChange,
  label,
}: {
  multiple: boolean;
  value: OperatorRef[];
  onChange: (users: OperatorRef[]) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const assignees = useAssignees();
  if (assignees.error) {
    return <Alert severity="warning">{t('docs.actions.noOperators')}</Alert>;
  }
  return (
    <Autocomplete<OperatorRef, boolean>
      multiple={multiple}
      options={assignees.data?.operators ?? []}
      loading={assignees.isPending}
      value={multiple ? value : (value[0] ?? null)}
      onChange={(_event, next) => onChange(next === null ? [] : Array.isArray(next) ? next : [next])}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      getOptionLabel={userName}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props} data-testid={`operator-option-${option.username}`}>
          <Box>
            <Typography variant="body2">{userName(option)}</Typography>
            <Typography variant="caption" color="text.secondary">
              {option.username}
            </Typography>
          </Box>
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'action-operator' },
          }}
        />
      )}
    />
  );
}

/** Charge: to an operator or a department (a user group of the company), with comments. */
function ChargeFields({ onReady }: { onReady: (request: Partial<Request> | null) => void }) {
  const { t } = useTranslation();
  const [to, setTo] = useState<'user' | 'group'>('user');
  const [users, setUsers] = useState<OperatorRef[]>([]);
  const [group, setGroup] = useState<AssigneeGroup | null>(null);
  const groups = useAssignees();
  useEffect(() => {
    if (to === 'user') onReady(users[0] ? { userId: users[0].id } : null);
    else onReady(group ? { groupId: group.id } : null);
  }, [to, users, group, onReady]);
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 0.75 }}>
          {t('docs.actions.chargeTo')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={to}
          onChange={(_event, next: 'user' | 'group' | null) => next && setTo(next)}
          color="primary"
        >
          <ToggleButton value="user" data-testid="charge-to-user">
            {t('docs.actions.toOperator')}
          </ToggleButton>
          <ToggleButton value="group" data-testid="charge-to-group">
            {t('docs.actions.toGroup')}
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {to === 'user' ? (
        <OperatorsPicker
          multiple={false}
          value={users}
          onChange={setUsers}
          label={t('docs.actions.operator')}
        />
      ) : groups.error ? (
        <Alert severity="warning">{t('docs.actions.noGroups')}</Alert>
      ) : (
        <Autocomplete<AssigneeGroup>
          options={groups.data?.groups ?? []}
          loading={groups.isPending}
          value={group}
          onChange={(_event, next) => setGroup(next)}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          getOptionLabel={(option) => option.name}
          renderOption={({ key, ...props }, option) => (
            <li key={key} {...props} data-testid={`group-option-${option.id}`}>
              <Box>
                <Typography variant="body2">{option.name}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('docs.actions.groupMembers', { count: option.memberCount })}
                </Typography>
              </Box>
            </li>
          )}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('docs.actions.group')}
              required
              slotProps={{
                ...params.slotProps,
                htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'action-group' },
              }}
            />
          )}
        />
      )}
    </Stack>
  );
}

function ShareFields({ onReady }: { onReady: (request: Partial<Request> | null) => void }) {
  const { t } = useTranslation();
  const [users, setUsers] = useState<OperatorRef[]>([]);
  useEffect(
    () => onReady(users.length > 0 ? { userIds: users.map((user) => user.id) } : null),
    [users, onReady],
  );
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t('docs.actions.shareHint')}
      </Typography>
      <OperatorsPicker multiple value={users} onChange={setUsers} label={t('docs.actions.operators')} />
    </Stack>
  );
}

/**
 * Send: how the document goes out. By e-mail it goes to every receiver's address, with its files;
 * the dialog lists them, and says what is missing (a receiver without e-mail, no mail server).
 */
function SendFields({
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

function SignFields({ document }: { document: ProtocolDocument }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" color="text.secondary">
        {t('docs.actions.signHint')}
      </Typography>
      <Box>
        <Typography variant="subtitle2">{t('docs.info.signatures')}</Typography>
        {document.signatures.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('docs.info.noSignatures')}
          </Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="sign-existing">
            {document.signatures.map((signature) => (
              <li key={signature.id}>
                <Typography variant="body2">
                  {t('docs.info.signedBy', {
                    name: signature.user.fullName || signature.user.username,
                    date: formatDateTime(signature.signedAt),
                  })}
                </Typography>
              </li>
            ))}
          </Box>
        )}
      </Box>
    </Stack>
  );
}

interface CaseRef {
  id: number;
  code: string;
  name: string;
}

/** Create case: a new case (description, type, agencies) or an existing one. */
function CaseFields({ onReady }: { onReady: (request: Partial<Request> | null) => void }) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [caseTypeId, setCaseTypeId] = useState('');
  const [agencies, setAgencies] = useState('');
  const [existing, setExisting] = useState<CaseRef | null>(null);
  const [input, setInput] = useState('');
  const search = useDebounced(input.trim(), 250);
  const caseTypes = useQuery({
    queryKey: ['documents', 'caseTypes', companyId],
    queryFn: ({ signal }) => referenceApi.caseTypes(companyId, signal),
    staleTime: 60_000,
  });
  const cases = useQuery({
    queryKey: ['documents', 'cases', companyId, search],
    queryFn: ({ signal }) => referenceApi.cases(search, companyId, signal),
    enabled: mode === 'existing',
  });
  useEffect(() => {
    if (mode === 'existing') onReady(existing ? { caseId: existing.id } : null);
    else
      onReady(
        name.trim()
          ? {
              case: {
                name: name.trim(),
                code: code.trim() || null,
                caseTypeId: caseTypeId ? Number(caseTypeId) : null,
                agencies: agencies.trim() || null,
              },
            }
          : null,
      );
  }, [mode, name, code, caseTypeId, agencies, existing, onReady]);
  const activeTypes = (caseTypes.data ?? []).filter((row: SettingOption) => row.active !== false);
  return (
    <Stack spacing={2}>
      <RadioGroup row value={mode} onChange={(event) => setMode(event.target.value as 'new' | 'existing')}>
        <FormControlLabel
          value="new"
          control={<Radio slotProps={{ input: { 'data-testid': 'case-mode-new' } as object }} />}
          label={t('docs.actions.newCase')}
        />
        <FormControlLabel
          value="existing"
          control={<Radio slotProps={{ input: { 'data-testid': 'case-mode-existing' } as object }} />}
          label={t('docs.actions.existingCase')}
        />
      </RadioGroup>
      {mode === 'new' ? (
        <>
          <TextField
            label={t('docs.actions.caseName')}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'case-name', maxLength: 500 } }}
          />
          <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 }}>
            <TextField
              label={t('docs.actions.caseCode')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'case-code', maxLength: 60 } }}
            />
            <TextField
              select
              label={t('docs.actions.caseType')}
              value={caseTypeId}
              onChange={(event) => setCaseTypeId(event.target.value)}
              slotProps={{
                select: { native: true },
                inputLabel: { shrink: true },
                htmlInput: { 'data-testid': 'case-type' },
              }}
            >
              <option value="">{t('docs.form.none')}</option>
              {activeTypes.map((row) => (
                <option key={row.id} value={row.id}>
                  {optionLabel(row)}
                </option>
              ))}
            </TextField>
          </Box>
          <TextField
            label={t('docs.actions.agencies')}
            value={agencies}
            onChange={(event) => setAgencies(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'case-agencies', maxLength: 1000 } }}
          />
        </>
      ) : (
        <Autocomplete<CaseRef>
          options={cases.data ?? []}
          loading={cases.isFetching}
          value={existing}
          filterOptions={(items) => items}
          onChange={(_event, next) => setExisting(next)}
          onInputChange={(_event, next) => setInput(next)}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          getOptionLabel={(option) => `${option.code} · ${option.name}`}
          noOptionsText={t('docs.actions.noResults')}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('docs.actions.chooseCase')}
              helperText={t('docs.actions.searchCase')}
              required
              slotProps={{
                ...params.slotProps,
                htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'case-existing' },
              }}
            />
          )}
        />
      )}
    </Stack>
  );
}

/** File transfer: a target document (by protocol no. or subject), which files, copy or move. */
function TransferFields({
  document,
  onReady,
}: {
  document: ProtocolDocument;
  onReady: (request: Partial<Request> | null) => void;
}) {
  const { t } = useTranslation();
  const { companyId } = useCompany();
  const [input, setInput] = useState('');
  const [target, setTarget] = useState<DocumentListItem | null>(null);
  const [chosen, setChosen] = useState<number[]>(() => document.attachments.map((file) => file.id));
  const registered = document.protocolNumber !== null;
  const [move, setMove] = useState(false);
  const search = useDebounced(input.trim(), 250);
  const results = useQuery({
    queryKey: ['documents', 'transferTarget', companyId, search],
    queryFn: ({ signal }) => documentsApi.search(search, companyId, signal),
    enabled: search.length >= 2,
  });
  useEffect(
    () =>
      onReady(
        target && chosen.length > 0 ? { targetDocumentId: target.id, attachmentIds: chosen, move } : null,
      ),
    [target, chosen, move, onReady],
  );
  const options = (results.data?.content ?? []).filter((row) => row.id !== document.id);
  const label = (row: DocumentListItem) =>
    `${row.protocolId ?? t('docs.info.unregisteredLink')} · ${row.subject}`;
  return (
    <Stack spacing={2}>
      <Autocomplete<DocumentListItem>
        options={options}
        loading={results.isFetching}
        value={target}
        filterOptions={(items) => items}
        onChange={(_event, next) => setTarget(next)}
        onInputChange={(_event, next) => setInput(next)}
        isOptionEqualToValue={(option, selected) => option.id === selected.id}
        getOptionLabel={label}
        noOptionsText={search.length < 2 ? t('docs.actions.typeMore') : t('docs.actions.noResults')}
        renderOption={({ key, ...props }, option) => (
          <li key={key} {...props} data-testid={`transfer-option-${option.id}`}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" noWrap>
                {option.protocolId ?? t('docs.info.unregisteredLink')} · {option.subject}
              </Typography>
              {option.correspondents && (
                <Typography variant="caption" color="text.secondary" noWrap component="div">
                  {option.correspondents}
                </Typography>
              )}
            </Box>
          </li>
        )}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('docs.actions.targetDocument')}
            helperText={t('docs.actions.searchDocument')}
            required
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'transfer-target' },
            }}
          />
        )}
      />
      <Box>
        <Typography variant="subtitle2">{t('docs.actions.chooseFiles')}</Typography>
        {document.attachments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('docs.actions.noFiles')}
          </Typography>
        ) : (
          <FormGroup data-testid="transfer-files">
            {document.attachments.map((file) => (
              <FormControlLabel
                key={file.id}
                label={file.fileName}
                control={
                  <Checkbox
                    size="small"
                    checked={chosen.includes(file.id)}
                    onChange={(event) =>
                      setChosen((list) =>
                        event.target.checked ? [...list, file.id] : list.filter((item) => item !== file.id),
                      )
                    }
                    slotProps={{ input: { 'data-testid': `transfer-file-${file.id}` } as object }}
                  />
                }
              />
            ))}
          </FormGroup>
        )}
      </Box>
      <RadioGroup value={move ? 'move' : 'copy'} onChange={(event) => setMove(event.target.value === 'move')}>
        <FormControlLabel
          value="copy"
          control={<Radio slotProps={{ input: { 'data-testid': 'transfer-copy' } as object }} />}
          label={t('docs.actions.copy')}
        />
        <FormControlLabel
          value="move"
          disabled={registered}
          control={<Radio slotProps={{ input: { 'data-testid': 'transfer-move' } as object }} />}
          label={t('docs.actions.move')}
        />
      </RadioGroup>
      {registered && (
        <Typography variant="caption" color="text.secondary">
          {t('docs.actions.moveRefused')}
        </Typography>
      )}
    </Stack>
  );
}

const TITLES: Record<DialogAction, string> = {
  charge: 'docs.actions.chargeTitle',
  share: 'docs.actions.shareTitle',
  return: 'docs.actions.returnTitle',
  sign: 'docs.actions.signTitle',
  send: 'docs.actions.sendTitle',
  createCase: 'docs.actions.caseTitle',
  fileTransfer: 'docs.actions.transferTitle',
};

/**
 * The dialog of an action that needs input; every one takes comments. On one document, or (charge
 * and share) on `count` selected documents of a list.
 */
export function ActionDialog({
  action,
  document,
  count,
  pending,
  onClose,
  onRun,
}: {
  action: DialogAction;
  pending: boolean;
  onClose: () => void;
  onRun: (request: Request) => void;
} & (
  | { document: ProtocolDocument; count?: undefined }
  | { document?: undefined; count: number; action: 'charge' | 'share' }
)) {
  const { t } = useTranslation();
  const titleId = useId();
  const [comments, setComments] = useState('');
  const needsInput = ['charge', 'share', 'createCase', 'fileTransfer'].includes(action);
  const [extra, setExtra] = useState<Partial<Request> | null>(needsInput ? null : {});
  const currentCharge = document?.chargedUser?.fullName ?? document?.chargedGroup?.name ?? null;

  let fields: ReactNode = null;
  switch (action) {
    case 'charge':
      fields = <ChargeFields onReady={setExtra} />;
      break;
    case 'share':
      fields = <ShareFields onReady={setExtra} />;
      break;
    case 'return':
      fields = (
        <Typography variant="body2" color="text.secondary">
          {t('docs.actions.returnHint')}
        </Typography>
      );
      break;
    case 'sign':
      if (document) fields = <SignFields document={document} />;
      break;
    case 'send':
      if (document) fields = <SendFields document={document} onReady={setExtra} />;
      break;
    case 'createCase':
      fields = <CaseFields onReady={setExtra} />;
      break;
    case 'fileTransfer':
      if (document) fields = <TransferFields document={document} onReady={setExtra} />;
      break;
  }

  return (
    <Dialog
      open
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      data-testid={`action-dialog-${action}`}
    >
      <DialogTitle id={titleId}>
        {t(document ? TITLES[action] : `docs.actions.${action}ManyTitle`)}
        <Typography variant="body2" color="text.secondary" noWrap>
          {document
            ? `${document.protocolId ?? t('docs.form.unregistered')} · ${document.subject}`
            : t('docs.list.bulkSelected', { count })}
        </Typography>
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2.25} sx={{ pt: 1 }}>
          {action === 'charge' && currentCharge && (
            <Alert severity="info" icon={false}>
              {t('docs.actions.currentCharge', { name: currentCharge })}
            </Alert>
          )}
          {fields}
          <Comments value={comments} onChange={setComments} />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button color="inherit" onClick={onClose} disabled={pending} data-testid="action-dialog-cancel">
          {t('docs.actions.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={extra === null}
          loading={pending}
          onClick={() =>
            extra &&
            onRun({
              actionType: { id: documentActions[action] },
              comments: comments.trim() || null,
              ...extra,
            })
          }
          data-testid="action-dialog-ok"
        >
          {t(`docs.actions.name.${action}`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
