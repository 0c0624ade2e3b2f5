import TimelineOutlinedIcon from '@mui/icons-material/TimelineOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useLocalize } from '../../lib/language.tsx';
import { type CaseTimelineEntry, casesApi, timelineKey } from './api.ts';

/** Actions that change the record (accent colour) against those that only read or move it. */
const STRONG = new Set([
  'registered',
  'created',
  'sign',
  'charge',
  'return',
  'convertToOutgoing',
  'createCase',
]);

const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

function Entry({ entry }: { entry: CaseTimelineEntry }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const label = t(`cases.timeline.action.${entry.action}`, {
    defaultValue: t(`documents.history.action.${entry.action}`, { defaultValue: entry.action }),
  });
  const changes = Object.entries(entry.changes ?? {});
  return (
    <Box
      component="li"
      data-testid={`case-timeline-entry-${entry.id}`}
      sx={{
        position: 'relative',
        pl: 4,
        pb: 2.5,
        listStyle: 'none',
        // The line to the next entry, drawn per entry so that it scrolls with them.
        '&::before': {
          content: '""',
          position: 'absolute',
          left: 10,
          top: 0,
          bottom: 0,
          width: 2,
          bgcolor: 'divider',
        },
        '&:first-of-type::before': { top: 8 },
        '&:last-of-type': { pb: 0 },
        '&:last-of-type::before': { bottom: 'auto', height: 8 },
      }}
    >
      <Box
        aria-hidden
        sx={(theme) => ({
          position: 'absolute',
          left: 5,
          top: 6,
          width: 12,
          height: 12,
          borderRadius: '50%',
          bgcolor: STRONG.has(entry.action) ? 'primary.main' : 'background.paper',
          border: `2px solid ${theme.palette.primary.main}`,
        })}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
        <Typography component="span" sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <Typography component="span" variant="body2" color="text.secondary">
          {formatDateTime(entry.at)}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ mt: 0.25 }}>
        <Link component={RouterLink} to={localize(`/document/${entry.document.id}/edit`)} underline="hover">
          {entry.document.protocolId ?? t('cases.documents.unregistered')}
        </Link>
        {' · '}
        {entry.document.subject}
      </Typography>
      {(entry.userFullName || entry.username) && (
        <Typography variant="body2" color="text.secondary">
          {t('cases.timeline.by', { name: entry.userFullName || entry.username })}
        </Typography>
      )}
      {entry.comments && (
        <Typography
          variant="body2"
          sx={{
            mt: 0.5,
            px: 1.25,
            py: 0.75,
            bgcolor: 'action.hover',
            borderRadius: 1,
            whiteSpace: 'pre-wrap',
          }}
        >
          {entry.comments}
        </Typography>
      )}
      {changes.length > 0 && (
        <Box component="details" sx={{ mt: 0.5, fontSize: 13, color: 'text.secondary' }}>
          <Box component="summary" sx={{ cursor: 'pointer' }}>
            {t('cases.timeline.changes')} ({changes.length})
          </Box>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {changes.map(([field, change]) => (
              <li key={field}>
                <strong>{t(`documents.field.${field}`, { defaultValue: field })}</strong>:{' '}
                {shown(change.before)} → {shown(change.after)}
              </li>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}

/** A case's timeline (GET /api/cases/{id}/timeline): every history line of its documents, newest first. */
export function CaseTimeline({ caseId }: { caseId: number | null }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: timelineKey(caseId ?? 0),
    queryFn: ({ signal }) => casesApi.timeline(caseId ?? 0, signal),
    enabled: caseId !== null,
  });
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} data-testid="case-timeline">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
        <TimelineOutlinedIcon color="primary" fontSize="small" />
        <Typography variant="h2" sx={{ fontSize: '1.05rem' }}>
          {t('cases.timeline.title')}
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('cases.timeline.subtitle')}
      </Typography>
      {caseId === null ? (
        <Typography color="text.secondary">{t('cases.timeline.saveFirst')}</Typography>
      ) : query.error ? (
        <RetryAlert error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.data ? (
        <Skeleton variant="rounded" height={160} />
      ) : query.data.length === 0 ? (
        <Typography color="text.secondary" data-testid="case-timeline-empty">
          {t('cases.timeline.empty')}
        </Typography>
      ) : (
        <Box
          component="ol"
          sx={{
            m: 0,
            p: 0,
            pr: 1,
            position: 'relative',
            // A long history scrolls inside the panel, beside the form.
            maxHeight: { lg: 'calc(100vh - 300px)' },
            minHeight: { lg: 320 },
            overflowY: { lg: 'auto' },
          }}
        >
          {query.data.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </Box>
      )}
    </Paper>
  );
}
