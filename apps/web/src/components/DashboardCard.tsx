import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { ComponentType, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** A quarter of the dashboard's width on large screens, half on small ones. */
export const QUARTER = { xs: 12, sm: 6, lg: 3 } as const;

interface StatCardProps {
  title: string;
  hint?: string;
  /** The big figure; omitted by cards that are only a list. */
  count?: number;
  icon: ComponentType<{ fontSize?: 'small' | 'medium' }>;
  /** The filtered list behind the card (already localised); without it the head is not a link. */
  to?: string;
  testId: string;
  children?: ReactNode;
}

/** A dashboard card: its head (icon, title, figure) opens the list behind it; below, its rows. */
export function StatCard({ title, hint, count, icon: Icon, to, testId, children }: StatCardProps) {
  const head = (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, p: 2 }}>
      <Box
        sx={(theme) => ({
          width: 40,
          height: 40,
          flexShrink: 0,
          borderRadius: 2,
          display: 'grid',
          placeItems: 'center',
          color: theme.palette.mode === 'light' ? 'primary.main' : 'primary.light',
          bgcolor: theme.palette.mode === 'light' ? 'rgba(80, 0, 255, 0.08)' : 'rgba(0, 200, 254, 0.12)',
        })}
      >
        <Icon fontSize="small" />
      </Box>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography variant="h3" sx={{ fontSize: '1rem', overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {count !== undefined && (
          <Typography
            data-testid={`${testId}-count`}
            sx={{ fontSize: '2rem', fontWeight: 700, lineHeight: 1.2, color: 'text.primary' }}
          >
            {count}
          </Typography>
        )}
        {hint && (
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        )}
      </Box>
      {to && <ArrowForwardIcon fontSize="small" sx={{ color: 'text.secondary', mt: 0.5 }} />}
    </Box>
  );
  return (
    <Card
      variant="outlined"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
      data-testid={testId}
    >
      {to ? (
        <CardActionArea component={RouterLink} to={to} data-testid={`${testId}-link`}>
          {head}
        </CardActionArea>
      ) : (
        head
      )}
      {children}
    </Card>
  );
}

export interface CardRow {
  key: string | number;
  primary: string;
  secondary?: string;
  /** Right-aligned figure or label. */
  end?: ReactNode;
  to: string;
  testId?: string;
}

/** The rows under a card's head, each a link; `empty` when there are none. */
export function CardRows({ rows, empty }: { rows: CardRow[]; empty: string }) {
  if (rows.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 2 }}>
        {empty}
      </Typography>
    );
  return (
    <List dense disablePadding sx={{ borderTop: 1, borderColor: 'divider' }}>
      {rows.map((row) => (
        <ListItem key={row.key} disablePadding>
          <ListItemButton component={RouterLink} to={row.to} data-testid={row.testId}>
            <ListItemText
              primary={row.primary}
              secondary={row.secondary}
              slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
            />
            {row.end !== undefined && (
              <Typography variant="body2" sx={{ ml: 2, fontWeight: 600, whiteSpace: 'nowrap' }}>
                {row.end}
              </Typography>
            )}
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}
