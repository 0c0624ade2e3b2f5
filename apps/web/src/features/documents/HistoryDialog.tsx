import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { formatSize } from './AttachmentsPanel.tsx';
import type { HistoryEntry } from './model.ts';

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A before/after value as a person reads it: dates DD/MM/YYYY, lists joined, objects by their name. */
export function readable(t: TFunction, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('docs.history.empty_value');
  if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
  if (typeof value === 'string') {
    if (ISO_DATE.test(value)) return formatDate(value);
    if (ISO_DATE_TIME.test(value)) return formatDateTime(value);
    return value;
  }
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return t('docs.history.empty_value');
    return value.map((item) => readable(t, item)).join(', ');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of [
      'fullname',
      'fullName',
      'descr',
      'name',
      'fileName',
      'protocolId',
      'username',
      'reference',
    ]) {
      if (typeof record[key] === 'string' && record[key]) return record[key] as string;
    }
    return JSON.stringify(value);
  }
  return String(value);
}

/** A changed field's label: the history's own, the documents list label, the form's, else the raw name. */
function fieldLabel(t: TFunction, field: string): string {
  return t(`docs.history.fields.${field}`, {
    defaultValue: t(`documents.field.${field}`, {
      defaultValue: t(`docs.form.${field}`, { defaultValue: field }),
    }),
  });
}

/** A value of a known field in words: kinds, states, sizes, hashes; otherwise `readable`. */
function fieldValue(t: TFunction, field: string, value: unknown, lang: string): string {
  if (value === null || value === undefined || value === '') return readable(t, value);
  if (field === 'kind') return t(`documents.kind.${value}`, { defaultValue: String(value) });
  if (field === 'sendStatus') return t(`documents.sendStatus.${value}`, { defaultValue: String(value) });
  if (field === 'state') return t(`docs.history.state.${value}`, { defaultValue: String(value) });
  if (field === 'sendMethod') return t(`docs.actions.method.${value}`, { defaultValue: String(value) });
  if (field === 'size' && typeof value === 'number') return formatSize(value, lang);
  if ((field === 'sha256' || field === 'signature' || field === 'contentHash') && typeof value === 'string') {
    return value.length > 20 ? `${value.slice(0, 16)}…` : value;
  }
  if ((field === 'reply' || field === 'clone') && typeof value === 'number') {
    return t('docs.info.document', { id: value });
  }
  return readable(t, value);
}

function actionLabel(t: TFunction, action: string): string {
  return t(`docs.history.action.${action}`, {
    defaultValue: t(`docs.actions.name.${action}`, { defaultValue: action }),
  });
}

/** The colour of an action's dot on the timeline. */
function tone(action: string): 'primary' | 'success' | 'warning' | 'error' | 'info' | 'grey' {
  if (/regist|sign|send/.test(action)) return 'success';
  if (/delete|archive/.test(action)) return 'error';
  if (/charge|share|return/.test(action)) return 'warning';
  if (/attachment|fileTransfer/.test(action)) return 'info';
  if (/create|clone|convert|Case/.test(action)) return 'primary';
  return 'grey';
}

/** A document's audit trail as a timeline (oldest first): who, when, what, comments, before/after. */
export function HistoryTimeline({ entries }: { entries: HistoryEntry[] }) {
  const { t, i18n } = useTranslation();
  if (entries.length === 0) {
    return (
      <Typography color="text.secondary" data-testid="history-empty">
        {t('docs.history.empty')}
      </Typography>
    );
  }
  return (
    <Box component="ol" data-testid="history-timeline" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {entries.map((entry, index) => {
        const color = tone(entry.action);
        const last = index === entries.length - 1;
        const changes = Object.entries(entry.changes ?? {});
        return (
          <Box
            component="li"
            key={entry.id}
            data-testid="history-entry"
            data-action={entry.action}
            sx={{ display: 'flex', gap: 2 }}
          >
            <Box
              sx={{
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                width: 16,
                flexShrink: 0,
              }}
            >
              <Box
                sx={(theme) => ({
                  mt: 0.75,
                  width: 14,
                  height: 14,
                  borderRadius: '50%',
                  bgcolor: color === 'grey' ? theme.palette.grey[500] : theme.palette[color].main,
                  boxShadow: `0 0 0 3px ${theme.palette.background.paper}`,
                })}
              />
              {!last && <Box sx={{ flexGrow: 1, width: 2, bgcolor: 'divider', my: 0.5 }} />}
            </Box>
            <Box sx={{ flexGrow: 1, minWidth: 0, pb: last ? 0 : 2.5 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
                <Typography sx={{ fontWeight: 600 }} data-testid="history-action">
                  {actionLabel(t, entry.action)}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('docs.history.by', { name: entry.userFullName || entry.username || t('common.empty') })}
                </Typography>
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ ml: 'auto', fontVariantNumeric: 'tabular-nums' }}
                  data-testid="history-at"
                >
                  {formatDateTime(entry.at)}
                </Typography>
              </Box>
              {entry.comments && (
                <Typography
                  variant="body2"
                  sx={{ mt: 0.5, pl: 1.25, borderLeft: 3, borderColor: 'divider', whiteSpace: 'pre-wrap' }}
                  data-testid="history-comments"
                >
                  {entry.comments}
                </Typography>
              )}
              {changes.length > 0 && (
                <Paper variant="outlined" sx={{ mt: 1, overflow: 'hidden' }} data-testid="history-changes">
                  <Box
                    component="table"
                    sx={{
                      width: '100%',
                      borderCollapse: 'collapse',
                      fontSize: 13,
                      '& th, & td': {
                        textAlign: 'left',
                        px: 1.25,
                        py: 0.6,
                        borderBottom: 1,
                        borderColor: 'divider',
                        verticalAlign: 'top',
                        wordBreak: 'break-word',
                      },
                      '& tr:last-of-type td': { borderBottom: 0 },
                      '& th': { color: 'text.secondary', fontWeight: 500, bgcolor: 'action.hover' },
                    }}
                  >
                    <thead>
                      <tr>
                        <th style={{ width: '28%' }}>{t('docs.history.field')}</th>
                        <th style={{ width: '36%' }}>{t('docs.history.before')}</th>
                        <th>{t('docs.history.after')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {changes.map(([field, change]) => (
                        <tr key={field} data-testid={`history-change-${field}`}>
                          <td>{fieldLabel(t, field)}</td>
                          <Box
                            component="td"
                            sx={{
                              color: 'text.secondary',
                              textDecoration: isEmpty(change.before) ? 'none' : 'line-through',
                            }}
                          >
                            {isEmpty(change.before)
                              ? '—'
                              : fieldValue(t, field, change.before, i18n.language)}
                          </Box>
                          <td>{fieldValue(t, field, change.after, i18n.language)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </Box>
                </Paper>
              )}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

export function HistoryDialog({
  entries,
  error,
  title,
  onClose,
}: {
  entries: HistoryEntry[] | null;
  error?: string | null;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      data-testid="history-dialog"
    >
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {t('docs.history.title')}
        <Typography variant="body2" color="text.secondary" noWrap>
          {title}
        </Typography>
        <IconButton
          onClick={onClose}
          aria-label={t('common.close')}
          sx={{ position: 'absolute', right: 12, top: 12 }}
          data-testid="history-close"
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        {error ? (
          <Alert severity="error">{error}</Alert>
        ) : (
          <Stack>{entries && <HistoryTimeline entries={entries} />}</Stack>
        )}
      </DialogContent>
    </Dialog>
  );
}
