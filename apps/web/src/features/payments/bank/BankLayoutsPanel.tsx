import AddOutlinedIcon from '@mui/icons-material/AddOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { BankLayout } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { BankLayoutDialog } from './BankLayoutDialog.tsx';
import { bankApi } from './bankApi.ts';

/** The banks' file layouts, as data: where each field sits and how amounts and dates are written. */
export function BankLayoutsPanel() {
  const { t } = useTranslation();
  const writable = usePermission('payments:admin');
  const [editing, setEditing] = useState<BankLayout | 'new' | null>(null);
  const layouts = useQuery({
    queryKey: ['bank', 'layouts'],
    queryFn: ({ signal }) => bankApi.layouts(signal),
  });
  const label = (key: string) => t(`bankUi.layouts.${key}`);
  const place = (layout: BankLayout) =>
    layout.fields
      .map((f) =>
        layout.format === 'csv'
          ? `${label(`field_${f.field}`)} ${f.column}`
          : `${label(`field_${f.field}`)} ${f.start}–${(f.start ?? 0) + (f.length ?? 0) - 1}`,
      )
      .join(' · ');
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="bank-layouts">
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center' }} spacing={2}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {label('help')}
        </Typography>
        {writable && (
          <Button startIcon={<AddOutlinedIcon />} variant="outlined" onClick={() => setEditing('new')}>
            {label('new')}
          </Button>
        )}
      </Stack>
      {!writable && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {label('readOnly')}
        </Alert>
      )}
      {layouts.isError && <Alert severity="error">{errorMessage(t, layouts.error)}</Alert>}
      <Table size="small">
        <TableHead>
          <TableRow>
            {['code', 'descr', 'format', 'dateFormat', 'fields'].map((c) => (
              <TableCell key={c} sx={{ fontWeight: 600 }}>
                {label(c)}
              </TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {layouts.data?.map((layout) => (
            <TableRow key={layout.id} data-testid="bank-layout-row">
              <TableCell>{layout.code}</TableCell>
              <TableCell>
                {layout.descr} {!layout.active && <Chip size="small" label={label('inactive')} />}
              </TableCell>
              <TableCell>{label(`format_${layout.format}`)}</TableCell>
              <TableCell>
                {layout.dateFormat}
                <Typography variant="caption" component="div" color="text.secondary">
                  {layout.amountInCents
                    ? label('amountInCents')
                    : layout.decimalComma
                      ? label('decimalComma')
                      : ''}
                </Typography>
              </TableCell>
              <TableCell>
                <Typography variant="caption">{place(layout)}</Typography>
              </TableCell>
              <TableCell align="right">
                <Button size="small" onClick={() => setEditing(layout)}>
                  {label('edit')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {editing && (
        <BankLayoutDialog
          layout={editing === 'new' ? null : editing}
          readOnly={!writable}
          onClose={() => setEditing(null)}
        />
      )}
    </Paper>
  );
}
