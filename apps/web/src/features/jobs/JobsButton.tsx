import './i18n/index.ts';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Job } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../lib/dates.ts';
import { jobErrorText } from '../../lib/jobs.ts';
import { useLocalize } from '../../lib/language.tsx';
import { TOP_BAR_HEIGHT } from '../../lib/theme.ts';
import { isActive, jobsApi, recentJobsKey } from './api.ts';

/** Polled this often while a job runs, to move its progress bar; rarely otherwise. */
const ACTIVE_POLL_MS = 2000;
const IDLE_POLL_MS = 60_000;

const stateColor = {
  queued: 'default',
  running: 'info',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
} as const;

/** The top bar's jobs button: a badge while jobs of the operator run, a drawer with the recent ones. */
export default function JobsButton() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: recentJobsKey,
    queryFn: ({ signal }) => jobsApi.recent(signal),
    refetchInterval: (query) => (query.state.data?.content.some(isActive) ? ACTIVE_POLL_MS : IDLE_POLL_MS),
  });
  const cancel = useMutation({
    mutationFn: jobsApi.cancel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recentJobsKey }),
  });
  const jobs = data?.content ?? [];
  const active = jobs.filter(isActive).length;
  const toggle = () => {
    if (!open) void queryClient.invalidateQueries({ queryKey: recentJobsKey });
    setOpen(!open);
  };
  return (
    <>
      <Tooltip title={active > 0 ? t('jobs.running', { count: active }) : t('jobs.button')}>
        <IconButton
          color="inherit"
          // The badge's count is visible text, so the name carries it too (WCAG 2.5.3, label in name).
          aria-label={active > 0 ? `${t('jobs.button')}: ${active}` : t('jobs.button')}
          data-testid="topbar-jobs"
          onClick={toggle}
        >
          <Badge
            badgeContent={active > 0 ? active : undefined}
            color="secondary"
            data-testid="topbar-jobs-badge"
          >
            <TaskAltIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        <Box sx={{ width: 360, pt: `${TOP_BAR_HEIGHT}px` }} data-testid="jobs-drawer">
          <Typography variant="h6" sx={{ px: 2, pt: 2 }}>
            {t('jobs.drawerTitle')}
          </Typography>
          {jobs.length === 0 ? (
            <Typography sx={{ px: 2, py: 2 }} color="text.secondary">
              {t('jobs.empty')}
            </Typography>
          ) : (
            <List>
              {jobs.map((job) => (
                <JobItem key={job.id} job={job} onCancel={() => cancel.mutate(job.id)} />
              ))}
            </List>
          )}
          <Box sx={{ px: 2, pb: 2 }}>
            <Button component={RouterLink} to={localize('/jobs')} onClick={() => setOpen(false)}>
              {t('jobs.all')}
            </Button>
          </Box>
        </Box>
      </Drawer>
    </>
  );
}

function JobItem({ job, onCancel }: { job: Job; onCancel: () => void }) {
  const { t } = useTranslation();
  const total = job.progressTotal ?? 0;
  const percent = total > 0 ? Math.min(100, (job.progressDone / total) * 100) : undefined;
  return (
    <ListItem sx={{ display: 'block' }} data-testid={`job-${job.id}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography sx={{ flexGrow: 1, fontWeight: 500 }}>
          {t(`jobs.kind.${job.kind}`, { defaultValue: job.kind })}
        </Typography>
        <Chip size="small" color={stateColor[job.state]} label={t(`jobs.state.${job.state}`)} />
      </Box>
      <Typography variant="caption" color="text.secondary">
        {formatDateTime(job.createdAt)}
        {job.progressMessage ? ` · ${job.progressMessage}` : ''}
      </Typography>
      {job.state === 'running' && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <LinearProgress
            sx={{ flexGrow: 1 }}
            variant={percent === undefined ? 'indeterminate' : 'determinate'}
            value={percent}
          />
          {total > 0 && (
            <Typography variant="caption">{t('jobs.progress', { done: job.progressDone, total })}</Typography>
          )}
        </Box>
      )}
      {job.state === 'failed' && job.error && (
        <Typography variant="caption" color="error" sx={{ display: 'block' }} data-testid="job-error">
          {jobErrorText(t, job)}
        </Typography>
      )}
      {job.state === 'queued' && (
        <Button size="small" onClick={onCancel}>
          {t('jobs.cancel')}
        </Button>
      )}
    </ListItem>
  );
}
