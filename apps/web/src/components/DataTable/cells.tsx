import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RemoveIcon from '@mui/icons-material/Remove';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import {
  type FieldDef,
  fieldLabel,
  formatAmount,
  namedValueLabel,
  optionLabel,
  periodNameIn,
  writtenCode,
} from '@protocol/contracts';
import i18next, { type TFunction } from 'i18next';
import { formatDate } from '../../lib/dates.ts';

/** Spec §9: a notes cell is at most 150 px wide. */
export const NOTES_MAX_WIDTH = 150;

export type Row = Record<string, unknown> & { id: number | string };

/** A column's header: a custom field's own label in the language in use, else its catalog key translated. */
export function labelOf(t: TFunction, field: FieldDef): string {
  return fieldLabel(field, i18next.language === 'en' ? 'en' : 'el', t);
}

/** A cell's value as text, the same in the table, the print page and the fast switch. */
export function formatValue(t: TFunction, field: FieldDef, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  switch (field.type) {
    case 'date':
      return formatDate(String(value));
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 'true'
        ? t('common.yes')
        : t('common.no');
    case 'enum': {
      const option = field.options?.find((item) => item.value === String(value));
      return option ? optionLabel(option, t) : String(value);
    }
    case 'money':
      return formatAmount(value, field.amount ?? 'money', i18next.language === 'en' ? 'en' : 'el');
    default:
      if (field.paddedCode) return writtenCode(String(value));
      if (field.periodName) return periodNameIn(String(value), i18next.language === 'en' ? 'en' : 'el');
      return namedValueLabel(field, String(value), (key) => t(key));
  }
}

/** A table cell's content: booleans as icons, notes cut to 150 px with the full text in a tooltip. */
export function CellContent({ t, field, value }: { t: TFunction; field: FieldDef; value: unknown }) {
  if (field.type === 'boolean') {
    const yes = value === true || value === 1 || value === '1' || value === 'true';
    const label = yes ? t('common.yes') : t('common.no');
    return yes ? (
      <CheckCircleIcon
        fontSize="small"
        color="success"
        titleAccess={label}
        sx={{ verticalAlign: 'middle' }}
      />
    ) : (
      <RemoveIcon
        fontSize="small"
        titleAccess={label}
        sx={{ verticalAlign: 'middle', color: 'text.disabled' }}
      />
    );
  }
  const text = formatValue(t, field, value);
  if (field.notes && text) {
    return (
      <Tooltip title={text} placement="bottom-start">
        <Box
          component="span"
          data-testid="notes-cell"
          sx={{
            display: 'block',
            maxWidth: NOTES_MAX_WIDTH,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {text}
        </Box>
      </Tooltip>
    );
  }
  return text;
}
