import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { AuditFields } from '@protocol/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/dates.ts';

export function initials(first?: string | null, last?: string | null, fallback = ''): string {
  const letters = `${first?.trim()[0] ?? ''}${last?.trim()[0] ?? ''}`;
  return (letters || fallback.slice(0, 2)).toLocaleUpperCase();
}

export interface PageHeaderTab {
  value: string;
  label: string;
}

export interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
  /** Text (initials) or any node (an icon) shown in the avatar; none when absent. */
  avatar?: ReactNode;
  tabs?: PageHeaderTab[];
  tab?: string;
  onTabChange?: (value: string) => void;
  /** The record's audit fields: created, defined (finalized), updated and changed, by whom and when. */
  audit?: Partial<AuditFields>;
  /** Buttons on the right of the title. */
  actions?: ReactNode;
  testId?: string;
}

const AUDIT_ROWS = [
  { key: 'created', user: 'createuser', date: 'createdate' },
  { key: 'defined', user: 'defuser', date: 'defdate' },
  { key: 'updated', user: 'updateuser', date: 'updatedate' },
  { key: 'changed', user: 'changeuser', date: 'changedate' },
] as const;

/** A page's title block (spec §2): title, subtitle, avatar, optional tabs and the audit information. */
export function PageHeader({
  title,
  subtitle,
  avatar,
  tabs,
  tab,
  onTabChange,
  audit,
  actions,
  testId,
}: PageHeaderProps) {
  const { t } = useTranslation();
  const empty = t('common.empty');
  return (
    <Paper variant="outlined" data-testid={testId ?? 'page-header'} sx={{ mb: 3, overflow: 'hidden' }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 2.5,
          px: { xs: 2, md: 3 },
          py: 2.5,
        }}
      >
        {avatar !== undefined && (
          <Avatar
            sx={(theme) => ({
              width: 56,
              height: 56,
              fontSize: 21,
              fontWeight: 600,
              bgcolor: theme.palette.primary.main,
              color: theme.palette.primary.contrastText,
            })}
          >
            {avatar}
          </Avatar>
        )}
        <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' } }} noWrap>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mt: 0.25 }} component="div">
              {subtitle}
            </Typography>
          )}
        </Box>
        {actions && <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{actions}</Box>}
        {audit && (
          <Box
            component="dl"
            aria-label={t('audit.title')}
            data-testid="page-header-audit"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: 'auto auto',
              columnGap: 1.5,
              rowGap: 0.25,
              fontSize: 13,
              flex: '0 0 auto',
              '& dt': { color: 'text.secondary', fontWeight: 500 },
              '& dd': { m: 0, fontVariantNumeric: 'tabular-nums' },
            }}
          >
            {AUDIT_ROWS.map((row) => {
              const user = audit[row.user];
              const date = formatDateTime(audit[row.date]);
              const text =
                user || date ? t('audit.byAt', { user: user || empty, date: date || empty }) : empty;
              return (
                <Box key={row.key} sx={{ display: 'contents' }} data-testid={`audit-${row.key}`}>
                  <dt>{t(`audit.${row.key}`)}</dt>
                  <dd>{text}</dd>
                </Box>
              );
            })}
          </Box>
        )}
      </Box>
      {tabs && tabs.length > 0 && (
        <Tabs
          value={tab ?? tabs[0]?.value}
          onChange={(_event, value: string) => onTabChange?.(value)}
          sx={{ px: { xs: 1, md: 2 }, borderTop: 1, borderColor: 'divider', minHeight: 44 }}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {tabs.map((item) => (
            <Tab key={item.value} value={item.value} label={item.label} sx={{ minHeight: 44 }} />
          ))}
        </Tabs>
      )}
    </Paper>
  );
}
