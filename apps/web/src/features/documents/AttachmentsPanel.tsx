import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { errorMessage } from '../../lib/errors.ts';
import { saveBlob } from '../../lib/files.ts';
import { useCan } from '../../lib/permissions.ts';
import {
  attachmentsApi,
  attachmentsKey,
  documentKey,
  documentsKey,
  fetchContent,
  uploadAttachment,
} from './api.ts';
import type { Attachment, AttachmentFile, ProtocolDocument } from './model.ts';

export function formatSize(bytes: number, lang: string): string {
  const format = (value: number) =>
    value.toLocaleString(lang === 'en' ? 'en-GB' : 'el-GR', { maximumFractionDigits: 1 });
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} KB`;
  return `${format(bytes / (1024 * 1024))} MB`;
}

const previewable = (attachment: Attachment) =>
  attachment.contentType === 'application/pdf' || attachment.contentType.startsWith('image/');

function FileIcon({ attachment }: { attachment: Attachment }) {
  if (attachment.contentType === 'application/pdf') return <PictureAsPdfOutlinedIcon color="error" />;
  if (attachment.contentType.startsWith('image/')) return <ImageOutlinedIcon color="primary" />;
  return <InsertDriveFileOutlinedIcon color="action" />;
}

interface Upload {
  key: string;
  name: string;
  progress: number;
}

/** The file's preview (PDF or image), from the bytes fetched with the session's token. */
function PreviewDialog({
  documentId,
  attachment,
  onClose,
}: {
  documentId: number;
  attachment: Attachment;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    fetchContent(documentId, attachment.id, true)
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(
          blob.type ? blob : new Blob([blob], { type: attachment.contentType }),
        );
        setUrl(objectUrl);
      })
      .catch((failure) => !cancelled && setError(errorMessage(t, failure)));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [documentId, attachment, t]);
  const image = attachment.contentType.startsWith('image/');
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="lg"
      fullWidth
      data-testid="attachment-preview"
    >
      <DialogTitle id={titleId} sx={{ pr: 6 }} noWrap>
        {attachment.fileName}
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0, height: '75vh', display: 'flex', bgcolor: 'action.hover' }}>
        {error && (
          <Alert severity="error" sx={{ m: 2, alignSelf: 'flex-start' }}>
            {error}
          </Alert>
        )}
        {!error && !url && <CircularProgress sx={{ m: 'auto' }} />}
        {url && image && (
          <Box
            component="img"
            src={url}
            alt={attachment.fileName}
            data-testid="attachment-preview-image"
            sx={{ m: 'auto', maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
          />
        )}
        {url && !image && (
          <Box
            component="iframe"
            src={url}
            title={attachment.fileName}
            data-testid="attachment-preview-frame"
            sx={{ border: 0, width: '100%', height: '100%' }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="attachment-preview-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A document's files (spec §5: only once the document is saved): drag and drop or the file button,
 * several at once with progress; each with size, version and uploader; download, preview (PDF and
 * images), a new version and deletion.
 */
export function AttachmentsPanel({
  document,
  writable,
}: {
  /** Absent while the document is not saved yet. */
  document?: ProtocolDocument;
  writable: boolean;
}) {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const inputRef = useRef<HTMLInputElement>(null);
  const versionRef = useRef<HTMLInputElement>(null);
  const [versionOf, setVersionOf] = useState<Attachment | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [preview, setPreview] = useState<Attachment | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const can = useCan();
  const documentId = document?.id ?? 0;
  const list = useQuery({
    queryKey: attachmentsKey(documentId),
    queryFn: ({ signal }) => attachmentsApi.list(documentId, signal),
    enabled: documentId > 0,
  });
  const maxMb = list.data?.maxUploadMb ?? null;
  const allowedTypes = list.data?.allowedTypes ?? [];
  const registered = document?.protocolNumber !== null && document?.protocolNumber !== undefined;
  // The files of a registered document are part of the record: only an administrator deletes them.
  const mayDelete = writable && (!registered || can('protocol:admin'));

  /** The server checks the same; checking first spares the operator a long upload. */
  const refusal = (file: File): string | null => {
    const extension = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
    if (allowedTypes.length > 0 && !allowedTypes.includes(extension)) {
      return t('error.attachment_type_not_allowed', {
        type: extension || file.name,
        allowed: allowedTypes.join(', '),
      });
    }
    if (maxMb !== null && file.size > maxMb * 1024 * 1024) {
      return t('error.attachment_too_large', { name: file.name, max: maxMb });
    }
    return null;
  };

  const refresh = async () => {
    if (!document) return;
    await queryClient.invalidateQueries({ queryKey: attachmentsKey(document.id) });
    await queryClient.invalidateQueries({ queryKey: documentKey(document.id) });
    void queryClient.invalidateQueries({ queryKey: documentsKey, exact: false, refetchType: 'none' });
    void queryClient.invalidateQueries({ queryKey: ['list'], exact: false });
  };

  const upload = async (files: File[], replaces?: Attachment) => {
    if (!document || files.length === 0) return;
    let done = 0;
    for (const file of files) {
      const refused = refusal(file);
      if (refused) {
        notify(refused, 'error');
        continue;
      }
      const key = `${file.name}-${file.size}-${Math.random()}`;
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      try {
        const stored = await uploadAttachment(
          document.id,
          file,
          (progress) =>
            setUploads((list) => list.map((item) => (item.key === key ? { ...item, progress } : item))),
          replaces?.id,
        );
        done += 1;
        if (replaces) {
          notify(
            t('docs.attachments.versionUploaded', {
              version: stored.version ?? replaces.version + 1,
              name: replaces.fileName,
            }),
            'success',
          );
        }
      } catch (failure) {
        notify(`${file.name}: ${errorMessage(t, failure)}`, 'error');
      } finally {
        setUploads((list) => list.filter((item) => item.key !== key));
      }
    }
    if (done > 0 && !replaces) notify(t('docs.attachments.uploaded', { count: done }), 'success');
    await refresh();
  };

  const download = async (attachment: Attachment) => {
    if (!document) return;
    setBusy(attachment.id);
    try {
      const blob = await fetchContent(document.id, attachment.id);
      saveBlob(blob, attachment.fileName);
    } catch (failure) {
      notify(errorMessage(t, failure), 'error');
    } finally {
      setBusy(null);
    }
  };

  const remove = async (attachment: Attachment) => {
    if (!document) return;
    const ok = await confirm({
      title: t('docs.attachments.deleteTitle'),
      message: t('docs.attachments.deleteMessage', { name: attachment.fileName }),
      confirmLabel: t('docs.attachments.delete'),
      danger: true,
    });
    if (!ok) return;
    setBusy(attachment.id);
    try {
      await attachmentsApi.remove(document.id, attachment.id);
      notify(t('docs.attachments.deleted'), 'success');
      await refresh();
    } catch (failure) {
      notify(errorMessage(t, failure), 'error');
    } finally {
      setBusy(null);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!writable) return;
    void upload(Array.from(event.dataTransfer.files));
  };

  const attachments: AttachmentFile[] =
    list.data?.files ??
    (document?.attachments ?? []).map((file) => ({
      ...file,
      previewable: previewable(file),
      versions: [],
    }));
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 2.5 } }} data-testid="attachments-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <AttachFileIcon fontSize="small" color="action" />
        <Typography variant="h2" sx={{ fontSize: '1.05rem', flexGrow: 1 }}>
          {t('docs.attachments.title')}
        </Typography>
        {document && <Chip size="small" label={attachments.length} data-testid="attachments-count" />}
      </Box>
      {!document ? (
        <Alert severity="info" data-testid="attachments-save-first">
          {t('error.document_not_saved', { defaultValue: t('docs.attachments.saveFirst') })}
        </Alert>
      ) : (
        <Stack spacing={1.5}>
          {writable ? (
            <Box
              data-testid="attachments-dropzone"
              data-dragging={dragging ? 'true' : 'false'}
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              sx={(theme) => ({
                border: `2px dashed ${dragging ? theme.palette.primary.main : theme.palette.divider}`,
                borderRadius: 2,
                bgcolor: dragging ? 'action.hover' : 'transparent',
                px: 2,
                py: 2.5,
                textAlign: 'center',
                transition: 'border-color 120ms, background-color 120ms',
              })}
            >
              <CloudUploadOutlinedIcon color={dragging ? 'primary' : 'action'} />
              <Typography variant="body2" color="text.secondary">
                {dragging ? (
                  t('docs.attachments.dropActive')
                ) : (
                  <>
                    {t('docs.attachments.drop')}{' '}
                    <Link
                      component="button"
                      type="button"
                      variant="body2"
                      onClick={() => inputRef.current?.click()}
                      data-testid="attachments-choose"
                      sx={{ verticalAlign: 'baseline' }}
                    >
                      {t('docs.attachments.choose')}
                    </Link>
                  </>
                )}
              </Typography>
              {maxMb !== null && (
                <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
                  {t('docs.attachments.limits', { max: maxMb })}
                </Typography>
              )}
              <input
                ref={inputRef}
                type="file"
                multiple
                hidden
                accept={
                  allowedTypes.length > 0 ? allowedTypes.map((type) => `.${type}`).join(',') : undefined
                }
                data-testid="attachments-input"
                onChange={(event) => {
                  const files = Array.from(event.target.files ?? []);
                  event.target.value = '';
                  void upload(files);
                }}
              />
              <input
                ref={versionRef}
                type="file"
                hidden
                accept={
                  allowedTypes.length > 0 ? allowedTypes.map((type) => `.${type}`).join(',') : undefined
                }
                data-testid="attachments-version-input"
                onChange={(event) => {
                  const files = Array.from(event.target.files ?? []).slice(0, 1);
                  event.target.value = '';
                  if (versionOf) void upload(files, versionOf);
                  setVersionOf(null);
                }}
              />
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('docs.attachments.readOnly')}
            </Typography>
          )}
          {uploads.map((item) => (
            <Box key={item.key} data-testid="attachment-upload">
              <Typography variant="caption" color="text.secondary" noWrap component="div">
                {t('docs.attachments.uploading', { name: item.name })}
              </Typography>
              <LinearProgress variant="determinate" value={Math.round(item.progress * 100)} />
            </Box>
          ))}
          {attachments.length === 0 && uploads.length === 0 && (
            <Typography variant="body2" color="text.secondary" data-testid="attachments-empty">
              {t('docs.attachments.empty')}
            </Typography>
          )}
          {attachments.length > 0 && (
            <Stack
              component="ul"
              data-testid="attachments-list"
              sx={{ listStyle: 'none', m: 0, p: 0 }}
              spacing={1}
            >
              {attachments.map((attachment) => (
                <Box
                  component="li"
                  key={attachment.id}
                  data-testid={`attachment-${attachment.id}`}
                  data-filename={attachment.fileName}
                  sx={{
                    p: 1,
                    borderRadius: 1.5,
                    border: 1,
                    borderColor: 'divider',
                  }}
                >
                  <Box sx={{ display: 'flex', gap: 1.25, alignItems: 'flex-start' }}>
                    <FileIcon attachment={attachment} />
                    <Box sx={{ minWidth: 0, flexGrow: 1 }}>
                      <Typography
                        variant="body2"
                        title={attachment.fileName}
                        sx={{ fontWeight: 500, wordBreak: 'break-word' }}
                      >
                        {attachment.fileName}
                      </Typography>
                      <Typography variant="caption" color="text.secondary" component="div">
                        {formatSize(attachment.size, i18n.language)} ·{' '}
                        {t('docs.attachments.version', { version: attachment.version })}
                        {(attachment.createuser || attachment.createdate) &&
                          ` · ${t('docs.attachments.uploadedBy', {
                            user: attachment.createuser ?? '',
                            date: formatDateTime(attachment.createdate),
                          })}`}
                      </Typography>
                      {attachment.versions.length > 0 && (
                        <Typography
                          variant="caption"
                          color="text.secondary"
                          component="div"
                          data-testid={`attachment-versions-${attachment.id}`}
                        >
                          {t('docs.attachments.olderVersions')}{' '}
                          {attachment.versions.map((version, index) => (
                            <span key={version.id}>
                              {index > 0 && ', '}
                              <Link
                                component="button"
                                type="button"
                                variant="caption"
                                onClick={() => void download(version)}
                                data-testid={`attachment-download-${version.id}`}
                                sx={{ verticalAlign: 'baseline' }}
                              >
                                {t('docs.attachments.version', { version: version.version })}
                              </Link>
                            </span>
                          ))}
                        </Typography>
                      )}
                    </Box>
                  </Box>
                  <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 0.25 }}>
                    {busy === attachment.id && <CircularProgress size={18} />}
                    {attachment.previewable && (
                      <Tooltip title={t('docs.attachments.preview')}>
                        <IconButton
                          size="small"
                          onClick={() => setPreview(attachment)}
                          aria-label={t('docs.attachments.preview')}
                          data-testid={`attachment-preview-${attachment.id}`}
                        >
                          <VisibilityOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    <Tooltip title={t('docs.attachments.download')}>
                      <IconButton
                        size="small"
                        onClick={() => void download(attachment)}
                        aria-label={t('docs.attachments.download')}
                        data-testid={`attachment-download-${attachment.id}`}
                      >
                        <DownloadOutlinedIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {writable && (
                      <Tooltip title={t('docs.attachments.newVersion')}>
                        <IconButton
                          size="small"
                          onClick={() => {
                            setVersionOf(attachment);
                            versionRef.current?.click();
                          }}
                          aria-label={t('docs.attachments.newVersion')}
                          data-testid={`attachment-version-${attachment.id}`}
                        >
                          <UploadFileOutlinedIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {mayDelete && (
                      <Tooltip title={t('docs.attachments.delete')}>
                        <IconButton
                          size="small"
                          onClick={() => void remove(attachment)}
                          aria-label={t('docs.attachments.delete')}
                          data-testid={`attachment-delete-${attachment.id}`}
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </Box>
                </Box>
              ))}
            </Stack>
          )}
        </Stack>
      )}
      {document && preview && (
        <PreviewDialog documentId={document.id} attachment={preview} onClose={() => setPreview(null)} />
      )}
      {confirmDialog}
    </Paper>
  );
}
