import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A titled card of an edit page; an optional hint under the title. */
export function Section({
  title,
  hint,
  testId,
  children,
}: {
  title: string;
  hint?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 } }} data-testid={testId}>
      <Typography variant="h2" sx={{ fontSize: '1.05rem', mb: hint ? 0.5 : 2.5 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
          {hint}
        </Typography>
      )}
      {children}
    </Paper>
  );
}
