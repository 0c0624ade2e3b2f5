import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  customTableRowSchema,
  customTableSchema,
  customTableValueRowSchema,
  customTableValueSchema,
} from '@protocol/contracts';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';
import { useSavedRows } from './useRows.ts';

const PATH = '/api/settings/custom_tables';

/** /settings/custom_tables: the value tables, then the values of the one picked. */
export default function CustomTablesTable() {
  const { t } = useTranslation();
  const saved = useSavedRows(PATH, customTableSchema);
  const [picked, setPicked] = useState<number | null>(null);
  const current = saved.find((item) => item.id === picked) ?? saved[0];
  const columns = useMemo<RowTableColumn[]>(
    () => [
      { key: 'name', label: t('settings.customTables.name'), type: 'text', required: true, maxLength: 100 },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ name: '' }), []);
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <SimpleTable
        path={PATH}
        title={t('settings.screens.customTables.tableTitle')}
        columns={columns}
        itemSchema={customTableSchema}
        rowSchema={customTableRowSchema}
        newRow={newRow}
        descriptionColumn="name"
        uniqueColumns={['name']}
      />
      {current ? (
        <Box sx={{ display: 'grid', gap: 1.5 }}>
          <TextField
            select
            size="small"
            label={t('settings.screens.customTables.pickTable')}
            value={current.id}
            onChange={(event) => setPicked(Number(event.target.value))}
            sx={{ maxWidth: 360 }}
            slotProps={{ htmlInput: { 'data-testid': 'custom-table-pick' } }}
          >
            {saved.map((item) => (
              <MenuItem key={item.id} value={item.id}>
                {item.name}
              </MenuItem>
            ))}
          </TextField>
          <ValuesTable key={current.id} tableId={current.id} name={current.name} />
        </Box>
      ) : (
        <Alert severity="info">{t('settings.screens.customTables.noTables')}</Alert>
      )}
    </Box>
  );
}

function ValuesTable({ tableId, name }: { tableId: number; name: string }) {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'description',
        label: t('settings.customTableValues.description'),
        type: 'text',
        required: true,
        maxLength: 200,
      },
      {
        key: 'order',
        label: t('settings.customTableValues.order'),
        type: 'number',
        required: true,
        min: 0,
        max: 100_000,
        width: 130,
      },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ description: '', order: 0 }), []);
  return (
    <SimpleTable
      path={`${PATH}/${tableId}/values`}
      title={t('settings.screens.customTables.valuesTitle', { name })}
      columns={columns}
      itemSchema={customTableValueSchema}
      rowSchema={customTableValueRowSchema}
      newRow={newRow}
      descriptionColumn="description"
      uniqueColumns={['description']}
    />
  );
}
