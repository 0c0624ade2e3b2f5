import Box from '@mui/material/Box';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteLoading } from '../lib/routeLoading.ts';

/** Spec §9: shown after a 200 ms throttle, fills over about 5 s, hidden 500 ms after the work ends. */
const THROTTLE_MS = 200;
const DURATION_MS = 5000;
const HIDE_DELAY_MS = 500;
const TICK_MS = 100;

type Phase = 'idle' | 'running' | 'done';

export function LoadingBar() {
  const { t } = useTranslation();
  const busy = useIsFetching() + useIsMutating() > 0;
  const routeLoading = useRouteLoading();
  const active = busy || routeLoading;
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState(0);
  const startedAt = useRef(0);

  useEffect(() => {
    if (active) {
      if (phase === 'running') return;
      const start = () => {
        startedAt.current = Date.now();
        setProgress(0);
        setPhase('running');
      };
      if (phase === 'done') {
        start();
        return;
      }
      const timer = window.setTimeout(start, THROTTLE_MS);
      return () => window.clearTimeout(timer);
    }
    if (phase === 'running') {
      setProgress(100);
      setPhase('done');
      return;
    }
    if (phase === 'done') {
      const timer = window.setTimeout(() => setPhase('idle'), HIDE_DELAY_MS);
      return () => window.clearTimeout(timer);
    }
    return undefined;
  }, [active, phase]);

  useEffect(() => {
    if (phase !== 'running') return;
    const timer = window.setInterval(() => {
      const elapsed = Date.now() - startedAt.current;
      // Linear to 90 % over the 5 s, then creeps on until the work is done.
      setProgress(
        elapsed < DURATION_MS
          ? (elapsed / DURATION_MS) * 90
          : Math.min(98, 90 + (elapsed - DURATION_MS) / 1000),
      );
    }, TICK_MS);
    return () => window.clearInterval(timer);
  }, [phase]);

  if (phase === 'idle') return null;
  return (
    <Box
      role="progressbar"
      aria-label={t('status.loading')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress)}
      data-testid="loading-bar"
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: 3,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        pointerEvents: 'none',
        opacity: phase === 'done' ? 0 : 1,
        transition: `opacity ${HIDE_DELAY_MS}ms ease ${phase === 'done' ? 200 : 0}ms`,
      }}
    >
      <Box
        sx={{
          height: '100%',
          width: `${progress}%`,
          bgcolor: (theme) => (theme.palette.mode === 'light' ? '#00c8fe' : theme.palette.primary.main),
          boxShadow: '0 0 8px rgba(0, 200, 254, 0.7)',
          transition: `width ${TICK_MS * 2}ms linear`,
        }}
      />
    </Box>
  );
}
