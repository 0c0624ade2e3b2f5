import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import {
  CUSTOM_EXPORT_SETTING_PREFIX,
  generalSettingRowSchema,
  generalSettingSchema,
  knownGeneralSettings,
} from '@protocol/contracts';
import type { TFunction } from 'i18next';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellType, DraftRow, RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

/** The editor of a row's value: that of its setting's type when the name is a known setting. */
function settingValueType(row: DraftRow): CellType | undefined {
  const name = String(row.parName ?? '').trim();
  const known = Object.hasOwn(knownGeneralSettings, name) ? knownGeneralSettings[name] : undefined;
  switch (known?.type) {
    case 'integer': {
      // The same bounds as the server's check (contracts generalSettingValueError).
      const min = known.min ?? 0;
      const max = known.max ?? 2_147_483_647;
      return { type: 'integer', min, max, placeholder: `${min}–${max}` };
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'email':
      return { type: 'email', placeholder: 'name@example.gr' };
    default:
      return undefined;
  }
}

const isKnown = (name: string) => Object.hasOwn(knownGeneralSettings, name);

/** What a setting is, in words (its name is a key such as gen.deya_aa); undefined for one of the company's own. */
function settingMeaning(t: TFunction, name: string): string | undefined {
  if (isKnown(name)) return t(`settings.screens.generalSettings.names.${name}`);
  if (name.startsWith(CUSTOM_EXPORT_SETTING_PREFIX))
    return t('settings.screens.generalSettings.customExport');
  return undefined;
}

/**
 * /settings/general_settings: parName/parValue of the company; the value of a known setting is
 * edited and checked by its type (a number, a switch storing 'true' / 'false', an e-mail).
 */
export default function GeneralSettingsTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'parName',
        label: t('settings.generalSettings.parName'),
        type: 'text',
        required: true,
        maxLength: 100,
        width: 300,
        placeholder: 'gen.deya_aa',
        note: (row) => settingMeaning(t, String(row.parName ?? '').trim()),
      },
      {
        key: 'parValue',
        label: t('settings.generalSettings.parValue'),
        type: 'text',
        maxLength: 2000,
        cellType: settingValueType,
      },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ parName: '', parValue: '' }), []);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
        data-testid="known-settings"
      >
        <Typography variant="body2" color="text.secondary" sx={{ mr: 0.5 }}>
          {t('settings.screens.generalSettings.known')}:
        </Typography>
        {Object.entries(knownGeneralSettings).map(([name, def]) => (
          <Chip
            key={name}
            size="small"
            variant="outlined"
            label={
              <>
                {settingMeaning(t, name)} · {t(`settings.screens.generalSettings.type_${def.type}`)}
                {def.min !== undefined && def.max !== undefined ? ` ${def.min}–${def.max}` : ''}{' '}
                {/* The key itself, as typed in the table below; code marks it as meant (e2e/support/keys.ts). */}
                <Box component="code" sx={{ color: 'text.secondary', fontSize: 11 }}>
                  {name}
                </Box>
              </>
            }
          />
        ))}
      </Box>
      <SimpleTable
        path="/api/general_settings"
        title={t('settings.screens.generalSettings.tableTitle')}
        columns={columns}
        itemSchema={generalSettingSchema}
        rowSchema={generalSettingRowSchema}
        newRow={newRow}
        descriptionColumn="parName"
        uniqueColumns={['parName']}
      />
    </Box>
  );
}
